// Capes players upload to their own wardrobe (USER_CAPES, contract section 19): the same checks and storage as skins,
// at most 100 of them (counted apart from skins), worn like any cape they own, and deleted only by their uploader.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, forbidden, notFound } from '../http/envelope.ts';
import type { CapeRecord } from '../http/shapes/cape-record.ts';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { canonicalTexture } from './canonical.ts';
import type { TextureLibrary } from './library.ts';
import type { Wardrobe } from './wardrobe.ts';
import type { ActingAccount } from '../audit/acting.ts';
import { wearCape } from './worn.ts';

export const MAX_OWN_CAPES_PER_PLAYER = 100;

export class OwnCapes {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly library: TextureLibrary,
    private readonly wardrobe: Wardrobe,
    private readonly clock: Clock,
    private readonly maxTextureWidth: number,
    /** USER_CAPES */
    readonly enabled: boolean,
    /** Told after every committed change, so that image resolutions cached elsewhere are dropped. */
    private readonly changed: () => void,
  ) {}

  /** Refuses every upload while USER_CAPES is false (before a byte of the file is read). */
  checkEnabled(): void {
    if (!this.enabled) throw forbidden('textures.userCapesOff');
  }

  /**
   * Adds a cape to the player's own wardrobe. `wear`: the profile of that UUID wears it (a launcher's upload);
   * otherwise the primary profile wears it only when it wears no cape.
   */
  async upload(acting: ActingAccount, upload: { png: Buffer; name?: string; wear?: string }): Promise<CapeRecord> {
    this.checkEnabled();
    const texture = await canonicalTexture(upload.png, 'cape', this.maxTextureWidth);
    const name = (upload.name ?? 'Cape').trim();
    if (name.length < 1 || name.length > 64) throw badRequest('textures.nameLength', { context: 'cape' });
    const uuid = await this.library.withTexture(texture, async (trx) => {
      const { count } = await trx
        .selectFrom('capes')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('uploader_id', '=', acting.accountId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= MAX_OWN_CAPES_PER_PLAYER) throw badRequest('textures.tooManyCapes', { count: MAX_OWN_CAPES_PER_PLAYER });
      const now = this.clock.now();
      const uuid = randomUUID();
      const { id } = await trx
        .insertInto('capes')
        .values({ uuid, name, texture_digest: texture.digest, created_at: now, uploader_id: acting.accountId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('cape_owners').values({ cape_id: id, user_id: acting.accountId, granted_at: now }).execute();
      if (upload.wear) await wearCape(trx, acting.accountId, upload.wear, id);
      else
        await trx
          .updateTable('users')
          .set({ selected_cape_id: id, updated_at: now })
          .where('id', '=', acting.accountId)
          .where('selected_cape_id', 'is', null)
          .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'cape.upload',
        target: acting.accountId,
        details: { cape: uuid, name, owners: [acting.accountId], digest: texture.digest },
      });
      return uuid;
    });
    this.changed();
    return (await this.wardrobe.ownCapes(acting.accountId)).find((cape) => cape.uuid === uuid)!;
  }

  /** Deletes a cape the player uploaded; one an admin gave them is not theirs to delete (404, as for no cape). */
  async delete(acting: ActingAccount, capeUuid: string): Promise<{ uuid: string }> {
    const uuid = normalizeUuid(capeUuid);
    const cape =
      uuid &&
      (await this.db
        .selectFrom('capes')
        .select(['id', 'uuid', 'name', 'texture_digest'])
        .where('uuid', '=', uuid)
        .where('uploader_id', '=', acting.accountId)
        .executeTakeFirst());
    if (!cape) throw notFound('textures.noOwnCape', { uuid: capeUuid });
    await this.library.releasing(async (trx) => {
      await trx.deleteFrom('capes').where('id', '=', cape.id).execute();
      await recordAudit(trx, this.clock.now(), {
        actor: acting.actor,
        action: 'cape.delete',
        target: acting.accountId,
        details: { cape: cape.uuid, name: cape.name },
      });
      return { result: undefined, released: [cape.texture_digest] };
    });
    this.changed();
    return { uuid: cape.uuid };
  }
}
