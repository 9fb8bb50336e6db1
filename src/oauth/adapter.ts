// oidc-provider's storage (its Adapter interface) in the service's database (sessions/oauth.ts): every model in one
// table, so that codes, tokens and grants survive restarts and every instance sees them. A token's or code's id is the
// bearer value itself, so rows are keyed by its hash and the payload is kept without it (a device code, found by its
// user code, keeps its id sealed under TOTP_KEY). Clients come from oauth_clients; a grant the player revoked
// (oauth_grants) is not found, which ends its refresh tokens and userinfo access.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { SealedBox } from '../crypto/sealed-box.ts';
import type { Database } from '../database/schema.ts';
import type { AdapterPayload } from 'oidc-provider';
import { deleteGrantModels, deleteModel, grantByKey, modelByUid, modelByUserCode, modelPayload, saveModel } from '../sessions/oauth.ts';

export const modelKey = (model: string, id: string) => createHash('sha256').update(`${model}:${id}`).digest('hex');
export const userCodeKey = (userCode: string) => createHash('sha256').update(`user_code:${userCode}`).digest('hex');

/** What the adapter tells the rest of the service. */
export interface AdapterEvents {
  /** A token was stored (access and refresh tokens become game tokens and extend their grant). */
  saved(model: string, id: string, payload: AdapterPayload): Promise<void>;
  /** Every token of the grant was revoked (a reused refresh token, a revocation). */
  grantRevoked(grantId: string): Promise<void>;
  /** The client's metadata as oidc-provider reads it; undefined for an unknown id. */
  client(id: string): Promise<AdapterPayload | undefined>;
}

export function databaseAdapter(db: Kysely<Database>, clock: Clock, box: SealedBox, events: AdapterEvents) {
  return class DatabaseAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const { jti: _value, ...kept } = payload;
      const key = modelKey(this.model, id);
      if (this.model === 'DeviceCode') kept.sealedId = box.seal(Buffer.from(id), key);
      await saveModel(db, {
        id: key,
        model: this.model,
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        user_code: typeof payload.userCode === 'string' ? userCodeKey(payload.userCode) : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        payload: JSON.stringify(kept),
        expires_at: expiresIn ? clock.now() + expiresIn * 1000 : null,
      });
      await events.saved(this.model, id, payload);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return events.client(id);
      if (this.model === 'Grant') {
        const grant = await grantByKey(db, id);
        if (!grant || grant.revoked_at !== null) return undefined;
      }
      return this.first(await modelPayload(db, modelKey(this.model, id)), id);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const row = await modelByUserCode(db, userCodeKey(userCode));
      if (!row) return undefined;
      const { sealedId, ...payload } = JSON.parse(row.payload) as AdapterPayload;
      const id = typeof sealedId === 'string' ? box.open(sealedId, row.id) : null;
      return id === null ? undefined : { ...payload, jti: id.toString() };
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.first(await modelByUid(db, this.model, uid));
    }

    async consume(id: string): Promise<void> {
      const found = await this.find(id);
      if (!found) return;
      await this.upsert(id, { ...found, consumed: Math.floor(clock.now() / 1000) }, this.secondsLeft(found));
    }

    async destroy(id: string): Promise<void> {
      if (this.model === 'Grant') await events.grantRevoked(id);
      await deleteModel(db, modelKey(this.model, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await events.grantRevoked(grantId);
      await deleteGrantModels(db, grantId, this.model);
    }

    private secondsLeft(payload: AdapterPayload): number | undefined {
      return typeof payload.exp === 'number' ? Math.max(1, payload.exp - Math.floor(clock.now() / 1000)) : undefined;
    }

    /** The payload of the row found, with its id put back when the caller knows it (find by uid serves
     * oidc-provider's logout, which this service does not use). */
    private first(row: { payload: string } | undefined, id?: string): AdapterPayload | undefined {
      if (!row) return undefined;
      const { sealedId: _sealed, ...payload } = JSON.parse(row.payload) as AdapterPayload;
      return id === undefined ? payload : { ...payload, jti: id };
    }
  };
}
