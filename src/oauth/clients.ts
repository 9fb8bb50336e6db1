// The OpenID Provider's clients (contract section 18): the built-in shared client any launcher may use without
// registering (its id derived from the database's random namespace, so that every instance, and a copy of the
// database, names the same one), and those admins register. oidc-provider reads them through
// the adapter as client metadata.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { AdapterPayload } from 'oidc-provider';
import type { Database } from '../database/schema.ts';
import { tokenHash } from '../http/secrets.ts';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A redirect the shared client accepts: plain http to a loopback address, any port and path (RFC 8252 7.3). */
export function isLoopbackRedirect(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.hash === '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** A redirect an admin may register: an absolute https address, or plain http to a loopback address; no fragment
 * (not even an empty one, which URL's hash does not show). */
export function isRegistrableRedirect(value: string): boolean {
  if (value.includes('#')) return false;
  if (isLoopbackRedirect(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/**
 * Whether `secret` is the confidential client's secret: oidc-provider is given the stored hash as the client's
 * secret (clientMetadata) and compares what the client sent through this (provider.ts), hashed, in constant time.
 */
export function clientSecretMatches(storedHash: string, secret: string): boolean {
  const sent = Buffer.from(tokenHash(secret));
  const stored = Buffer.from(storedHash);
  return sent.length === stored.length && timingSafeEqual(sent, stored);
}

/** The shared client's id, its row made at the first start. */
export async function sharedClientId(db: Kysely<Database>, clock: Clock): Promise<string> {
  const { namespace } = await db.selectFrom('deployment').select('namespace').executeTakeFirstOrThrow();
  const id = createHash('sha256').update(`yggdrasil-connect-shared-client:${namespace}`).digest('hex').slice(0, 32);
  await db
    .insertInto('oauth_clients')
    .values({ id, name: 'Launchers', redirect_uris: '[]', public: 1, device: 1, secret_hash: null, builtin: 1, created_at: clock.now() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  return id;
}

/** The client's metadata as oidc-provider reads it; undefined for an unknown id. */
export async function clientMetadata(db: Kysely<Database>, id: string): Promise<AdapterPayload | undefined> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  // The shared client's redirects are checked by isLoopbackRedirect (provider.ts); this one only satisfies the schema.
  const redirects: string[] = row.builtin === 1 ? ['http://127.0.0.1/'] : JSON.parse(row.redirect_uris);
  const native = redirects.every(isLoopbackRedirect);
  return {
    client_id: row.id,
    client_name: row.name,
    application_type: native ? 'native' : 'web',
    redirect_uris: redirects,
    response_types: redirects.length > 0 ? ['code'] : [],
    grant_types: [...(redirects.length > 0 ? ['authorization_code'] : []), 'refresh_token', ...(row.device === 1 ? [DEVICE_GRANT] : [])],
    token_endpoint_auth_method: row.public === 1 ? 'none' : 'client_secret_basic',
    ...(row.public === 1 ? {} : { client_secret: row.secret_hash }),
  };
}
