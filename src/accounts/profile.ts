// The user detail shape of interface.md 2.4, shared by GET /api/home and the admin user view.
import type { Kysely } from 'kysely';
import { reusableQuery } from '../database/reusable-query.ts';
import type { Database, UserRow } from '../database/schema.ts';
import type { UserDetail } from '../http/shapes/user-detail.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../i18n/languages.ts';

/** The user columns the detail shape is made of. */
type ProfileUser = Pick<
  UserRow,
  | 'id'
  | 'username'
  | 'uuid'
  | 'mail'
  | 'mail_verify'
  | 'mail_verification'
  | 'dsid'
  | 'discord_username'
  | 'discord_avatar'
  | 'selected_skin_id'
  | 'selected_cape_id'
  | 'language'
>;

export class Profiles {
  // Run on every GET /api/home: compiled once (see reusable-query.ts).
  private readonly skinsOf;
  private readonly capesOf;
  private readonly twoFactorOf;

  constructor(db: Kysely<Database>) {
    this.skinsOf = reusableQuery(db, { userId: -201 }, ({ userId }) =>
      db
        .selectFrom('skins')
        .leftJoin('capes', 'capes.id', 'skins.cape_id')
        .select(['skins.id', 'skins.uuid', 'skins.name', 'capes.uuid as cape_uuid'])
        .where('skins.user_id', '=', userId)
        .orderBy('skins.id'),
    );
    this.capesOf = reusableQuery(db, { userId: -202 }, ({ userId }) =>
      db
        .selectFrom('capes')
        .innerJoin('cape_owners', 'cape_owners.cape_id', 'capes.id')
        .select(['capes.id', 'capes.uuid', 'capes.name'])
        .where('cape_owners.user_id', '=', userId)
        .orderBy('capes.id'),
    );
    // Whether two-factor login is on (src/two-factor keeps the table; a setup not confirmed yet does not count).
    this.twoFactorOf = reusableQuery(db, { userId: -203 }, ({ userId }) =>
      db.selectFrom('two_factor').select('user_id').where('user_id', '=', userId).where('enabled_at', 'is not', null),
    );
  }

  /** `level` is the effective level (perms raised by a role grant), which is what a client acts on. */
  async detail(user: ProfileUser, level: number): Promise<UserDetail> {
    const [skins, capes, twoFactor] = await Promise.all([
      this.skinsOf({ userId: user.id }),
      this.capesOf({ userId: user.id }),
      this.twoFactorOf({ userId: user.id }),
    ]);
    return {
      Username: user.username ?? '',
      Uuid: user.uuid ?? '',
      Mail: user.mail,
      Mail_verify: user.mail_verify,
      Selected_Cape: capes.find((cape) => cape.id === user.selected_cape_id)?.id ?? 0,
      Selected_Skin: skins.find((skin) => skin.id === user.selected_skin_id)?.uuid ?? '',
      PermLvl: level,
      Capes: capes.map((cape) => ({ Id: cape.uuid, Name: cape.name })),
      Skins: skins.map((skin) => ({ uuid: skin.uuid, name: skin.name, cloak_id: skin.cape_uuid ?? '' })),
      Discord_integration: user.dsid !== null,
      Discord: { userid: user.dsid ?? '', username: user.discord_username ?? '', avatar: user.discord_avatar ?? '' },
      Mail_verification: user.mail_verification,
      TwoFactor: twoFactor.length > 0,
      Language: isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
    };
  }
}
