// The user detail shape of interface.md 2.4, shared by GET /api/home and the admin user view.
import { type Expression, sql, type Kysely } from 'kysely';
import { jsonRows, jsonRowsColumn } from '../database/dialect.ts';
import { reusableQuery } from '../database/reusable-query.ts';
import type { Database, UserRow } from '../database/schema.ts';
import type { UserDetail } from '../http/shapes/user-detail.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../i18n/languages.ts';
import { NO_PASSWORD } from './passwords.ts';
import { LEVELS } from './standing.ts';

/** The profile limit in force (contract section 16): the account's own, else the setting; admins and owners have none. */
export const profileLimit = (own: number | null, setting: number, level: number) => (level >= LEVELS.admin ? -1 : (own ?? setting));

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
  | 'max_profiles'
>;

type HoldingKind = 'skin' | 'cape' | 'two_factor' | 'no_password' | 'profile' | 'identity' | 'premium';

/**
 * One thing a user holds: a skin (with the cape it shows), a cape, two-factor login being on, having no password (an
 * account registered through an OpenID Connect provider without choosing one), or a game profile
 * (with the ids of the skin and cape it wears, when it is not the primary one: that one wears the account's choice),
 * or a linked OpenID Connect identity (uuid: the provider's id, name: its name for the person, cape_uuid: its subject),
 * or a linked official account (uuid and name: the official ones, cape_uuid: the source's key).
 */
export interface Holding {
  kind: HoldingKind;
  id: number;
  uuid: string;
  name: string;
  cape_uuid: string | null;
  skin_id: number | null;
  cape_id: number | null;
}

const HOLDING_COLUMNS = ['kind', 'id', 'uuid', 'name', 'cape_uuid', 'skin_id', 'cape_id'] as const;

/** Everything the detail shape lists of a user, of three tables in one query (one round trip on PostgreSQL). */
function holdingsOf(db: Kysely<Database>, userId: number | Expression<number>) {
  const kind = (holding: HoldingKind) => sql.lit(holding).$castTo<HoldingKind>().as('kind');
  const none = <Column extends string>(column: Column) => sql.lit(null).$castTo<string | null>().as(column);
  const blank = <Column extends string>(column: Column) => sql.lit('').$castTo<string>().as(column);
  // Typed: PostgreSQL reads an untyped null as text, which does not unite with the profiles' integer columns.
  const noId = <Column extends string>(column: Column) => sql<number | null>`cast(null as integer)`.as(column);
  return (
    db
      .selectFrom('skins')
      .leftJoin('capes', 'capes.id', 'skins.cape_id')
      .select([kind('skin'), 'skins.id', 'skins.uuid', 'skins.name', 'capes.uuid as cape_uuid', noId('skin_id'), noId('cape_id')])
      .where('skins.user_id', '=', userId)
      .unionAll(
        db
          .selectFrom('capes')
          .innerJoin('cape_owners', 'cape_owners.cape_id', 'capes.id')
          .select([kind('cape'), 'capes.id', 'capes.uuid', 'capes.name', none('cape_uuid'), noId('skin_id'), noId('cape_id')])
          .where('cape_owners.user_id', '=', userId),
      )
      // Whether two-factor login is on (src/two-factor keeps the table; a setup not confirmed yet does not count).
      .unionAll(
        db
          .selectFrom('two_factor')
          .select([kind('two_factor'), 'user_id as id', blank('uuid'), blank('name'), none('cape_uuid'), noId('skin_id'), noId('cape_id')])
          .where('user_id', '=', userId)
          .where('enabled_at', 'is not', null),
      )
      // Whether the account is password-less (contract section 26): the pages offer to set a password instead of
      // asking for it. Its own alias: within holdingsColumn, users is the statement's own row.
      .unionAll(
        db
          .selectFrom('users as own')
          .select([kind('no_password'), 'own.id', blank('uuid'), blank('name'), none('cape_uuid'), noId('skin_id'), noId('cape_id')])
          .where('own.id', '=', userId)
          .where('own.password', '=', sql.lit(NO_PASSWORD)),
      )
      .unionAll(
        db
          .selectFrom('profiles')
          .select([
            kind('profile'),
            'profiles.id',
            'profiles.uuid',
            'profiles.name',
            none('cape_uuid'),
            'profiles.selected_skin_id as skin_id',
            'profiles.selected_cape_id as cape_id',
          ])
          .where('profiles.user_id', '=', userId),
      )
      // The linked OpenID Connect identities (contract section 26; src/oidc keeps the table).
      .unionAll(
        db
          .selectFrom('oidc_identities')
          .select([
            kind('identity'),
            'oidc_identities.id',
            'oidc_identities.provider as uuid',
            'oidc_identities.name',
            'oidc_identities.subject as cape_uuid',
            noId('skin_id'),
            noId('cape_id'),
          ])
          .where('oidc_identities.user_id', '=', userId),
      )
      // The linked official accounts (contract section 20; src/fallback/premium.ts keeps the table).
      .unionAll(
        db
          .selectFrom('premium_links')
          .select([
            kind('premium'),
            'premium_links.id',
            'premium_links.premium_uuid as uuid',
            'premium_links.premium_name as name',
            'premium_links.source as cape_uuid',
            noId('skin_id'),
            noId('cape_id'),
          ])
          .where('premium_links.user_id', '=', userId),
      )
  );
}

/** Enough of an identity's subject for its owner to tell two apart, not all of it: its last four characters. */
export const subjectHint = (subject: string) => (subject.length > 8 ? `…${subject.slice(-4)}` : `${subject.slice(0, 1)}…`);

/**
 * The holdings of the user of `users.id` as one column of a statement on `users`: the authentication hook reads them
 * with the session of GET /api/home, so that the route costs one read. Read the column back with holdingsFromColumn.
 */
export const holdingsColumn = (db: Kysely<Database>) =>
  jsonRowsColumn(db, holdingsOf(db, sql.ref<number>('users.id')).as('holding'), HOLDING_COLUMNS).as('holdings');

/** The holdings of holdingsColumn, in id order like the query of Profiles. */
export function holdingsFromColumn(value: unknown): Holding[] {
  return jsonRows(value)
    .map(([kind, id, uuid, name, cape_uuid, skin_id, cape_id]) => ({ kind, id, uuid, name, cape_uuid, skin_id, cape_id }) as Holding)
    .sort((a, b) => a.id - b.id);
}

export class Profiles {
  /** Run by the admin user view and after changes: compiled once (see reusable-query.ts). Rows come in id order. */
  private readonly holdingsOf;

  constructor(
    db: Kysely<Database>,
    /** MAX_PROFILES: the limit of an account without its own. */
    private readonly maxProfiles: number,
    /** The premium link sources (src/fallback/sources.ts): a stored key's shown name and its place in the order. */
    private readonly premiumSources: { nameOf(key: string): string; orderOf(key: string): number } = {
      nameOf: (key) => key,
      orderOf: () => 0,
    },
  ) {
    this.holdingsOf = reusableQuery(db, { userId: -201 }, ({ userId }) => holdingsOf(db, userId).orderBy('id'));
  }

  /**
   * `level` is the effective level (perms raised by a role grant), which is what a client acts on. `holdings`: read
   * already (with the session, see holdingsColumn); read here when absent.
   */
  async detail(user: ProfileUser, level: number, holdings?: Holding[]): Promise<UserDetail> {
    holdings ??= await this.holdingsOf({ userId: user.id });
    const skins = holdings.filter((holding) => holding.kind === 'skin');
    const capes = holdings.filter((holding) => holding.kind === 'cape');
    const skinUuid = (id: number | null) => skins.find((skin) => skin.id === id)?.uuid ?? '';
    const capeUuid = (id: number | null) => capes.find((cape) => cape.id === id)?.uuid ?? '';
    const profiles = holdings
      .filter((holding) => holding.kind === 'profile')
      .map((profile) => {
        const primary = profile.uuid === user.uuid;
        return {
          Uuid: profile.uuid,
          Username: profile.name,
          Primary: primary,
          Selected_Skin: skinUuid(primary ? user.selected_skin_id : profile.skin_id),
          Selected_Cape: capeUuid(primary ? user.selected_cape_id : profile.cape_id),
        };
      });
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
      TwoFactor: holdings.some((holding) => holding.kind === 'two_factor'),
      HasPassword: !holdings.some((holding) => holding.kind === 'no_password'),
      Language: isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
      Profiles: profiles,
      MaxProfiles: profileLimit(user.max_profiles, this.maxProfiles, level),
      Identities: holdings
        .filter((holding) => holding.kind === 'identity')
        .map((identity) => ({ provider: identity.uuid, name: identity.name, subject_hint: subjectHint(identity.cape_uuid ?? '') })),
      ...this.premiumOf(holdings),
    };
  }

  private premiumOf(holdings: Holding[]): Pick<UserDetail, 'Premium' | 'PremiumLinks'> {
    const { nameOf, orderOf } = this.premiumSources;
    const links = holdings
      .filter((holding) => holding.kind === 'premium')
      .sort((a, b) => orderOf(a.cape_uuid ?? '') - orderOf(b.cape_uuid ?? ''))
      .map((link) => ({ key: link.cape_uuid ?? '', uuid: link.uuid, name: link.name, source: nameOf(link.cape_uuid ?? '') }));
    const shown = links.map(({ uuid, name, source }) => ({ uuid, name, source }));
    const first = links.find((link) => link.key === 'mojang') ?? links[0];
    return { Premium: first ? { uuid: first.uuid, name: first.name, source: first.source } : null, PremiumLinks: shown };
  }
}
