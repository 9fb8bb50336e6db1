// The clients admins register for Yggdrasil Connect (contract section 18): sites and launchers of their own, with
// their redirects, the device grant when allowed, and for a confidential client a secret shown once and kept as its
// SHA-256 (clients.ts compares it). Deleting one ends every grant players gave it. The shared client is not theirs
// to list, change or delete.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Acting } from '../audit/acting.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database, OAuthClientsTable } from '../database/schema.ts';
import { badRequest, notFound } from '../http/envelope.ts';
import { tokenHash } from '../http/secrets.ts';
import type { NewOAuthClientRecord, OAuthClientRecord } from '../http/shapes/oauth.ts';
import { isRegistrableRedirect } from './clients.ts';
import type { OAuthGrants } from './grants.ts';

export interface NewClient {
  name: string;
  redirect_uris: string[];
  public: boolean;
  device: boolean;
}

/** What an admin may change: whether a client is public is fixed (a confidential one's secret is shown only once). */
export type ClientChanges = Partial<Pick<NewClient, 'name' | 'redirect_uris' | 'device'>>;

type ClientRow = Pick<OAuthClientsTable, 'id' | 'name' | 'redirect_uris' | 'public' | 'device'>;

const recordOf = (row: ClientRow): OAuthClientRecord => ({
  id: row.id,
  name: row.name,
  redirect_uris: JSON.parse(row.redirect_uris) as string[],
  public: row.public === 1,
  device: row.device === 1,
});

/** A client must be able to get tokens somehow: by a redirect (the authorization code grant) or the device grant. */
function checkUsable(redirects: string[], device: boolean) {
  const refused = redirects.find((uri) => !isRegistrableRedirect(uri));
  if (refused !== undefined) throw badRequest('oauth.badRedirect', { uri: refused });
  if (redirects.length === 0 && !device) throw badRequest('oauth.clientUnusable');
}

export class RegisteredClients {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly grants: OAuthGrants,
  ) {}

  async list(): Promise<OAuthClientRecord[]> {
    const rows = await this.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('builtin', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(recordOf);
  }

  /** A new client; a confidential one's secret is in the answer, and nowhere else afterwards. */
  async create(acting: Acting, input: NewClient): Promise<NewOAuthClientRecord> {
    checkUsable(input.redirect_uris, input.device);
    const secret = input.public ? undefined : randomBytes(32).toString('base64url');
    const row = {
      id: randomBytes(16).toString('hex'),
      name: input.name.trim(),
      redirect_uris: JSON.stringify(input.redirect_uris),
      public: input.public ? 1 : 0,
      device: input.device ? 1 : 0,
    };
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('oauth_clients')
        .values({ ...row, secret_hash: secret === undefined ? null : tokenHash(secret), builtin: 0, created_at: now })
        .execute();
      const { id: client, ...details } = recordOf(row);
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'oauth.client.create',
        target: acting.actor.id,
        details: { client, ...details },
      });
    });
    return { ...recordOf(row), ...(secret !== undefined && { secret }) };
  }

  async update(acting: Acting, id: string, changes: ClientChanges): Promise<OAuthClientRecord> {
    const current = recordOf(await this.find(id));
    const next = { ...current, ...changes, ...(changes.name !== undefined && { name: changes.name.trim() }) };
    checkUsable(next.redirect_uris, next.device);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('oauth_clients')
        .set({ name: next.name, redirect_uris: JSON.stringify(next.redirect_uris), device: next.device ? 1 : 0 })
        .where('id', '=', id)
        .execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'oauth.client.update',
        target: acting.actor.id,
        details: { client: id, ...changes },
      });
    });
    return next;
  }

  /** Deletes the client and ends its grants: their access tokens no longer join, their refresh tokens no longer refresh. */
  async remove(acting: Acting, id: string): Promise<void> {
    const { name } = await this.find(id);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const grants = await this.grants.endClient(acting, trx, id);
      await trx.deleteFrom('oauth_clients').where('id', '=', id).execute();
      await recordAudit(trx, now, {
        actor: acting.actor,
        action: 'oauth.client.delete',
        target: acting.actor.id,
        details: { client: id, name, grants },
      });
    });
  }

  private async find(id: string): Promise<ClientRow> {
    const row = await this.db
      .selectFrom('oauth_clients')
      .select(['id', 'name', 'redirect_uris', 'public', 'device'])
      .where('id', '=', id)
      .where('builtin', '=', 0)
      .executeTakeFirst();
    if (!row) throw notFound('oauth.clientNotFound', { id });
    return row;
  }
}
