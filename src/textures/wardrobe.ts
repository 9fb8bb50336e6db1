// Skins and capes: a player's own wardrobe (contract section 6) and the admin texture endpoints (interface.md 4.2).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { userByIdentifier, normalizeUuid } from '../accounts/identifiers.ts';
import type { SelectionChanges, TextureChoice } from '../accounts/service.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database, Executor } from '../database/schema.ts';
import { levelOfUser } from '../accounts/standing.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { checkBelowOwnLevel } from '../accounts/levels.ts';
import type { Acting, ActingAccount } from '../audit/acting.ts';
import { languageOfUser, queueMail } from '../mail/outbox.ts';
import { skinRemovedMessage } from '../mail/templates.ts';
import { isSlimSkin } from '../skin/texture.ts';
import { canonicalTexture } from './canonical.ts';
import { wearCape } from './worn.ts';
import { setWorn } from '../accounts/profile-rows.ts';
import type { TextureLibrary } from './library.ts';
import type { CapeRecord } from '../http/shapes/cape-record.ts';
import type { SkinRecord } from '../http/shapes/skin-record.ts';

/** Whose wardrobe: the audit log names them by username (or mail before registration step 3). */
export interface Page {
  limit: number;
  offset: number;
}

export const MAX_SKINS_PER_PLAYER = 100;

function checkName(value: string, what: 'skin' | 'cape'): string {
  const name = value.trim();
  if (name.length < 1 || name.length > 64) throw badRequest('textures.nameLength', { context: what });
  return name;
}

export class Wardrobe {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly library: TextureLibrary,
    private readonly clock: Clock,
    private readonly publicUrl: string,
    private readonly maxTextureWidth: number,
    /** Told after every committed change, so that image resolutions cached elsewhere are dropped. */
    private readonly changed: () => void,
    /** Told after a change queued a mail, so that the mail worker sends it now. */
    private readonly mailQueued: () => void = () => {},
  ) {}

  // ---- the player's own skins and capes ----

  /** The first skin a player uploads becomes the selected one; with `wear`, every upload does (the game's upload). */
  /**
   * Adds a skin to the wardrobe. `wear`: the profile of that UUID wears it (a launcher's upload); otherwise the
   * primary profile wears it only when it wears none (an account's first skin, contract section 6).
   */
  async uploadSkin(acting: ActingAccount, upload: { png: Buffer; name?: string; slim?: boolean; wear?: string }): Promise<SkinRecord> {
    const texture = await canonicalTexture(upload.png, 'skin', this.maxTextureWidth);
    const name = checkName(upload.name ?? 'Skin', 'skin');
    const slim = upload.slim ?? isSlimSkin(texture.image);
    const userId = acting.accountId;
    const uuid = await this.library.withTexture(texture, async (trx) => {
      const { count } = await trx
        .selectFrom('skins')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_SKINS_PER_PLAYER) throw badRequest('textures.tooManySkins', { count: MAX_SKINS_PER_PLAYER });
      const now = this.clock.now();
      const uuid = randomUUID();
      const { id } = await trx
        .insertInto('skins')
        .values({
          uuid,
          user_id: userId,
          name,
          slim: slim ? 1 : 0,
          hd: texture.image.width > 64 ? 1 : 0,
          texture_digest: texture.digest,
          cape_id: null,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (upload.wear) await setWorn(trx, upload.wear, { selected_skin_id: id });
      else
        await trx
          .updateTable('users')
          .set({ selected_skin_id: id, updated_at: now })
          .where('id', '=', userId)
          .where('selected_skin_id', 'is', null)
          .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'skin.upload',
        target: userId,
        details: { skin: uuid, digest: texture.digest },
      });
      return uuid;
    });
    this.changed();
    return this.skinRecord(this.db, uuid);
  }

  async ownSkins(userId: number): Promise<SkinRecord[]> {
    const { selected_skin_id } = await this.db
      .selectFrom('users')
      .select('selected_skin_id')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const rows = await this.skinQuery(this.db).where('skins.user_id', '=', userId).orderBy('skins.id').execute();
    return rows.map((row) => ({ ...this.toSkinRecord(row), selected: row.id === selected_skin_id }));
  }

  async ownCapes(userId: number): Promise<CapeRecord[]> {
    const { selected_cape_id } = await this.db
      .selectFrom('users')
      .select('selected_cape_id')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const capes = await this.db
      .selectFrom('capes')
      .innerJoin('cape_owners', 'cape_owners.cape_id', 'capes.id')
      .select(['capes.id', 'capes.uuid', 'capes.name', 'capes.texture_digest'])
      .where('cape_owners.user_id', '=', userId)
      .orderBy('capes.id')
      .execute();
    const records = await this.capeRecords(this.db, capes);
    return records.map((record, index) => ({ ...record, selected: capes[index]!.id === selected_cape_id }));
  }

  async updateOwnSkin(
    acting: ActingAccount,
    skinUuid: string,
    changes: { name?: string; slim?: boolean; cloakid?: string },
  ): Promise<SkinRecord> {
    const skin = await this.skinOf(this.db, skinUuid, acting.accountId);
    return this.updateSkin(acting, skin, changes, 'skin.update');
  }

  async deleteOwnSkin(acting: ActingAccount, skinUuid: string): Promise<{ uuid: string }> {
    const skin = await this.skinOf(this.db, skinUuid, acting.accountId);
    await this.library.releasing(async (trx) => {
      await trx.deleteFrom('skins').where('id', '=', skin.id).execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action: 'skin.delete',
        target: acting.accountId,
        details: { skin: skin.uuid },
      });
      return { result: undefined, released: [skin.texture_digest] };
    });
    this.changed();
    return { uuid: skin.uuid };
  }

  /**
   * Checks a change of the selected skin and cape ("" for none) and answers the columns to write; writes nothing, so
   * that PATCH /api/home can check every part of a request before it changes anything.
   */
  async selectionChanges(userId: number, choice: TextureChoice): Promise<SelectionChanges> {
    const changes: SelectionChanges = {};
    if (choice.selected_skin !== undefined) {
      changes.selected_skin_id =
        choice.selected_skin === '' ? null : (await this.skinOf(this.db, choice.selected_skin, userId, 'selected_skin')).id;
    }
    if (choice.selected_cape !== undefined) {
      changes.selected_cape_id =
        choice.selected_cape === '' ? null : await this.ownedCapeId(this.db, choice.selected_cape, userId, 'selected_cape');
    }
    return changes;
  }

  /**
   * The player wears no skin (the game then draws its default) or no cape: neither the selected one nor one linked to
   * the selected skin. The wardrobe keeps both.
   */
  async takeOff(acting: ActingAccount, profileUuid: string, texture: 'skin' | 'cape'): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      if (texture === 'skin') await setWorn(trx, profileUuid, { selected_skin_id: null });
      else await wearCape(trx, acting.accountId, profileUuid, null);
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'user.take_off',
        target: acting.accountId,
        details: { texture, profile: profileUuid },
      });
    });
    this.changed();
  }

  // ---- admin ----

  async allSkins(page: Page): Promise<{ records: SkinRecord[]; total: number }> {
    const rows = await this.skinQuery(this.db)
      .innerJoin('users', 'users.id', 'skins.user_id')
      .select('users.username as owner_name')
      .orderBy('skins.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { total } = await this.db
      .selectFrom('skins')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return { records: rows.map((row) => ({ ...this.toSkinRecord(row), owner_name: row.owner_name ?? '' })), total: Number(total) };
  }

  async skinsOfUser(identifier: string): Promise<SkinRecord[]> {
    const user = await userByIdentifier(this.db, identifier);
    return this.ownSkins(user.id);
  }

  /** Only a skin of a player below the editor's own level (levels.ts). */
  async adminUpdateSkin(
    editor: Acting,
    skinUuid: string,
    changes: { name?: string; slim?: boolean; hd?: boolean; cloakid?: string },
  ): Promise<SkinRecord> {
    const skin = await this.skinOf(this.db, skinUuid, null);
    await this.checkOthersBelowOwnLevel(this.db, editor, [skin.user_id], 'textures.skinAtOrAboveOwnLevel');
    return this.updateSkin(editor, skin, changes, 'skin.admin_update');
  }

  /**
   * Moderation: an admin deletes a player's skin (only of a player below the admin's own effective level), the owner
   * is mailed with the reason, and the texture goes as with the player's own delete; a selected skin is unselected
   * (the foreign key's ON DELETE SET NULL).
   */
  async moderateDeleteSkin(editor: Acting, skinUuid: string, reason = ''): Promise<{ uuid: string }> {
    const why = reason.trim();
    if (why.length > 500) throw badRequest('textures.reasonTooLong', { field: 'reason' });
    const skin = await this.skinOf(this.db, skinUuid, null);
    await this.library.releasing(async (trx) => {
      const owner = await trx
        .selectFrom('users')
        .select(['id', 'username', 'mail', 'perms'])
        .where('id', '=', skin.user_id)
        .executeTakeFirstOrThrow();
      const now = this.clock.now();
      await this.checkOthersBelowOwnLevel(trx, editor, [owner.id], 'textures.skinAtOrAboveOwnLevel');
      const { name } = await trx.selectFrom('skins').select('name').where('id', '=', skin.id).executeTakeFirstOrThrow();
      await trx.deleteFrom('skins').where('id', '=', skin.id).execute();
      await recordAudit(trx, now, {
        actor: editor.actor,
        action: 'skin.moderate_delete',
        target: owner.id,
        details: { skin: skin.uuid, name, reason: why },
      });
      // In the owner's language, not the moderator's (contract section 14).
      const language = await languageOfUser(trx, owner.id);
      await queueMail(trx, now, owner.mail, skinRemovedMessage(language, owner.username ?? owner.mail, name, why, new Date(now)));
      return { result: undefined, released: [skin.texture_digest] };
    });
    this.changed();
    this.mailQueued();
    return { uuid: skin.uuid };
  }

  async uploadCape(acting: Acting, upload: { png: Buffer; name: string; owners: number[] }): Promise<CapeRecord> {
    const name = checkName(upload.name, 'cape');
    const texture = await canonicalTexture(upload.png, 'cape', this.maxTextureWidth);
    const owners = [...new Set(upload.owners)];
    await this.checkUsersExist(this.db, owners);
    const uuid = await this.library.withTexture(texture, async (trx) => {
      const now = this.clock.now();
      const uuid = randomUUID();
      const { id } = await trx
        .insertInto('capes')
        .values({ uuid, name, texture_digest: texture.digest, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (owners.length > 0)
        await trx
          .insertInto('cape_owners')
          .values(owners.map((userId) => ({ cape_id: id, user_id: userId, granted_at: now })))
          .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'cape.upload',
        details: { cape: uuid, name, owners, digest: texture.digest },
      });
      return uuid;
    });
    this.changed();
    const cape = await this.db
      .selectFrom('capes')
      .select(['id', 'uuid', 'name', 'texture_digest'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    return (await this.capeRecords(this.db, [cape]))[0]!;
  }

  /**
   * Owner grants and skin links to the cape go with it, in the same transaction. It takes the cape from its owners,
   * so all of them must be below the editor's level.
   */
  async deleteCape(editor: Acting, capeUuid: string): Promise<{ uuid: string }> {
    const cape = await this.capeByUuid(this.db, capeUuid);
    await this.library.releasing(async (trx) => {
      // Only owners whose stored level or role grant reaches the editor's can refuse it: a cape given to every player
      // is checked on those few, not user by user.
      const candidates = await trx
        .selectFrom('cape_owners')
        .innerJoin('users', 'users.id', 'cape_owners.user_id')
        .leftJoin('role_grants', 'role_grants.user_id', 'users.id')
        .select('users.id')
        .where('cape_owners.cape_id', '=', cape.id)
        .where((eb) => eb.or([eb('users.perms', '>=', editor.level), eb('role_grants.role_level', '>=', editor.level)]))
        .execute();
      await this.checkOthersBelowOwnLevel(
        trx,
        editor,
        candidates.map((owner) => owner.id),
        'textures.capeOwnerAtOrAboveOwnLevel',
      );
      await trx.deleteFrom('capes').where('id', '=', cape.id).execute();
      await recordAudit(trx, this.clock.now(), {
        actor: editor.actor,
        action: 'cape.delete',
        details: { cape: cape.uuid, name: cape.name },
      });
      return { result: undefined, released: [cape.texture_digest] };
    });
    this.changed();
    return { uuid: cape.uuid };
  }

  /**
   * Replaces the set of capes the user owns; a cape they lose is also unselected and unlinked from their skins.
   * Giving capes is open to every admin; taking one away only from a user below the editor's level.
   */
  async setUserCapes(
    editor: Acting,
    identifier: string,
    body: { user?: number; cape: string[] },
  ): Promise<{ id: number; capes: string[] }> {
    const user = await userByIdentifier(this.db, identifier);
    if (body.user !== undefined && body.user !== user.id) throw badRequest('admin.userMismatch', { given: body.user, id: user.id });
    const capeIds: number[] = [];
    for (const capeUuid of new Set(body.cape)) capeIds.push((await this.capeByUuid(this.db, capeUuid, 400)).id);
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      let lost = trx.selectFrom('cape_owners').select('cape_id').where('user_id', '=', user.id);
      if (capeIds.length > 0) lost = lost.where('cape_id', 'not in', capeIds);
      if (await lost.executeTakeFirst()) await this.checkOthersBelowOwnLevel(trx, editor, [user.id], 'textures.capeOwnerAtOrAboveOwnLevel');
      await trx.deleteFrom('cape_owners').where('user_id', '=', user.id).execute();
      if (capeIds.length > 0)
        await trx
          .insertInto('cape_owners')
          .values(capeIds.map((capeId) => ({ cape_id: capeId, user_id: user.id, granted_at: now })))
          .execute();
      let unlinkLostCapes = trx.updateTable('skins').set({ cape_id: null }).where('user_id', '=', user.id).where('cape_id', 'is not', null);
      if (capeIds.length > 0) unlinkLostCapes = unlinkLostCapes.where('cape_id', 'not in', capeIds);
      await unlinkLostCapes.execute();
      if (user.selected_cape_id !== null && !capeIds.includes(user.selected_cape_id)) {
        await trx.updateTable('users').set({ selected_cape_id: null, updated_at: now }).where('id', '=', user.id).execute();
      }
      await recordAudit(trx, now, {
        actor: editor.actor,
        action: 'cape.assign',
        target: user.id,
        details: { capes: [...new Set(body.cape)].map((uuid) => normalizeUuid(uuid)) },
      });
    });
    this.changed();
    const owned = await this.db
      .selectFrom('cape_owners')
      .innerJoin('capes', 'capes.id', 'cape_owners.cape_id')
      .select('capes.uuid')
      .where('cape_owners.user_id', '=', user.id)
      .orderBy('capes.id')
      .execute();
    return { id: user.id, capes: owned.map((row) => row.uuid) };
  }

  async allCapes(page: Page): Promise<{ records: CapeRecord[]; total: number }> {
    const capes = await this.db
      .selectFrom('capes')
      .select(['id', 'uuid', 'name', 'texture_digest'])
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { total } = await this.db
      .selectFrom('capes')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const records = await this.capeRecords(this.db, capes);
    const ownerIds = [...new Set(records.flatMap((record) => record.owners))];
    const names = new Map(
      ownerIds.length === 0
        ? []
        : (await this.db.selectFrom('users').select(['id', 'username']).where('id', 'in', ownerIds).execute()).map((row) => [
            row.id,
            row.username ?? '',
          ]),
    );
    return {
      records: records.map((record) => ({ ...record, owner_users: record.owners.map((id) => ({ id, username: names.get(id) ?? '' })) })),
      total: Number(total),
    };
  }

  // ---- shared ----

  private async updateSkin(
    acting: Acting,
    skin: { id: number; uuid: string; user_id: number },
    changes: { name?: string; slim?: boolean; hd?: boolean; cloakid?: string },
    action: 'skin.update' | 'skin.admin_update',
  ): Promise<SkinRecord> {
    const values: { name?: string; slim?: number; hd?: number; cape_id?: number | null } = {};
    if (changes.name !== undefined) values.name = checkName(changes.name, 'skin');
    if (changes.slim !== undefined) values.slim = changes.slim ? 1 : 0;
    if (changes.hd !== undefined) values.hd = changes.hd ? 1 : 0;
    if (changes.cloakid !== undefined)
      values.cape_id = changes.cloakid === '' ? null : await this.ownedCapeId(this.db, changes.cloakid, skin.user_id, 'cloakid');
    await this.db.transaction().execute(async (trx) => {
      if (Object.keys(values).length > 0) await trx.updateTable('skins').set(values).where('id', '=', skin.id).execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action,
        target: skin.user_id,
        details: { skin: skin.uuid, ...changes },
      });
    });
    this.changed();
    return this.skinRecord(this.db, skin.uuid);
  }

  private skinQuery(db: Executor) {
    return db
      .selectFrom('skins')
      .leftJoin('capes', 'capes.id', 'skins.cape_id')
      .select([
        'skins.id',
        'skins.uuid',
        'skins.name',
        'skins.user_id',
        'skins.slim',
        'skins.hd',
        'skins.texture_digest',
        'capes.uuid as cape_uuid',
      ]);
  }

  private toSkinRecord(row: {
    uuid: string;
    name: string;
    user_id: number;
    slim: number;
    hd: number;
    texture_digest: string;
    cape_uuid: string | null;
  }): SkinRecord {
    return {
      uuid: row.uuid,
      name: row.name,
      owner: row.user_id,
      slim: row.slim === 1,
      hd: row.hd === 1,
      cloak_id: row.cape_uuid ?? '',
      digest: row.texture_digest,
      url: `${this.publicUrl}/api/skin/cloak/${row.uuid}`,
    };
  }

  private async skinRecord(db: Executor, uuid: string): Promise<SkinRecord> {
    return this.toSkinRecord(await this.skinQuery(db).where('skins.uuid', '=', uuid).executeTakeFirstOrThrow());
  }

  private async capeRecords(
    db: Executor,
    capes: { id: number; uuid: string; name: string; texture_digest: string }[],
  ): Promise<CapeRecord[]> {
    const ids = capes.map((cape) => cape.id);
    const owners =
      ids.length === 0
        ? []
        : await db.selectFrom('cape_owners').select(['cape_id', 'user_id']).where('cape_id', 'in', ids).orderBy('user_id').execute();
    return capes.map((cape) => ({
      uuid: cape.uuid,
      name: cape.name,
      owners: owners.filter((owner) => owner.cape_id === cape.id).map((owner) => owner.user_id),
      digest: cape.texture_digest,
      url: `${this.publicUrl}/api/skin/standart/cape/${cape.uuid}`,
    }));
  }

  /** The skin named by `skinUuid`; when `ownerId` is given it must be theirs (404 otherwise, as for no skin). */
  private async skinOf(db: Executor, skinUuid: string, ownerId: number | null, field?: string) {
    const uuid = normalizeUuid(skinUuid);
    const skin =
      uuid &&
      (await db.selectFrom('skins').select(['id', 'uuid', 'user_id', 'texture_digest']).where('uuid', '=', uuid).executeTakeFirst());
    if (!skin || (ownerId !== null && skin.user_id !== ownerId)) {
      if (field) throw badRequest('textures.notYourSkin', { field });
      throw notFound('textures.noSkin', { uuid: skinUuid });
    }
    return skin;
  }

  private async capeByUuid(db: Executor, capeUuid: string, status: 400 | 404 = 404) {
    const uuid = normalizeUuid(capeUuid);
    const cape =
      uuid && (await db.selectFrom('capes').select(['id', 'uuid', 'name', 'texture_digest']).where('uuid', '=', uuid).executeTakeFirst());
    if (!cape) throw status === 400 ? badRequest('textures.noCape', { uuid: capeUuid }) : notFound('textures.noCape', { uuid: capeUuid });
    return cape;
  }

  private async ownedCapeId(db: Executor, capeUuid: string, userId: number, field: string): Promise<number> {
    const uuid = normalizeUuid(capeUuid);
    const owned =
      uuid &&
      (await db
        .selectFrom('capes')
        .innerJoin('cape_owners', 'cape_owners.cape_id', 'capes.id')
        .select('capes.id')
        .where('capes.uuid', '=', uuid)
        .where('cape_owners.user_id', '=', userId)
        .executeTakeFirst());
    if (!owned) throw badRequest('textures.capeNotOwned', { field });
    return owned.id;
  }

  /**
   * Refuses with `refusal` when any of the users, the editor's own account aside (the rule is about another
   * account's things, contract section 15), is at or above the editor's level (levels.ts).
   */
  private async checkOthersBelowOwnLevel(db: Executor, editor: Acting, userIds: number[], refusal: string) {
    const others = userIds.filter((id) => id !== editor.actor.id);
    if (others.length === 0) return;
    const now = this.clock.now();
    const users = await db.selectFrom('users').select(['id', 'perms', 'banned_until']).where('id', 'in', others).execute();
    for (const user of users) checkBelowOwnLevel(editor, await levelOfUser(db, user, now), refusal);
  }

  private async checkUsersExist(db: Executor, userIds: number[]) {
    if (userIds.length === 0) return;
    const found = new Set((await db.selectFrom('users').select('id').where('id', 'in', userIds).execute()).map((row) => row.id));
    const missing = userIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw badRequest('textures.noOwners', { ids: missing.join(', ') });
  }
}
