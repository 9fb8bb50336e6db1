// The service's own RSA key, which signs what game clients and servers must be able to trust (profile textures,
// player certificates). Made once, kept in the database, so every instance signs with the same key without setup.
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject, sign } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';

const generate = promisify(generateKeyPair);

/** authlib-injector's wiki asks for at least 4096 bits; a shorter key is also refused by some game versions. */
export const SERVICE_KEY_BITS = 4096;

export class ServiceKey {
  readonly publicKeyPem: string;
  /** The public key as DER SubjectPublicKeyInfo (what /publickeys lists, in base64). */
  readonly publicKeyDer: Buffer;

  private constructor(private readonly privateKey: KeyObject) {
    const publicKey = createPublicKey(privateKey);
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    this.publicKeyDer = publicKey.export({ type: 'spki', format: 'der' });
  }

  /** Base64 SHA1withRSA signature, the algorithm the game and authlib-injector verify. */
  sign(data: string | Buffer): string {
    return sign('sha1', typeof data === 'string' ? Buffer.from(data, 'utf8') : data, this.privateKey).toString('base64');
  }

  static fromPem(pem: string): ServiceKey {
    return new ServiceKey(createPrivateKey(pem));
  }
}

/**
 * The key named `name`, made on first use: generating 4096 bits takes a second or more, so nothing pays it until a
 * game login needs it. Instances that need it at the same moment may both generate one; the first insert wins and
 * both use that one.
 */
export function lazyServiceKey(db: Kysely<Database>, clock: Clock, name: string): () => Promise<ServiceKey> {
  let loading: Promise<ServiceKey> | null = null;
  const load = async () => ServiceKey.fromPem(await storedPrivateKey(db, clock, name, SERVICE_KEY_BITS));
  return () => {
    // A failed load (database briefly down) is tried again by the next caller rather than remembered.
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

/** The PKCS#8 PEM of the RSA key named `name`, generated with `bits` and stored when there is none yet. */
export async function storedPrivateKey(db: Kysely<Database>, clock: Clock, name: string, bits: number): Promise<string> {
  const stored = await db.selectFrom('signing_keys').select('private_key').where('name', '=', name).executeTakeFirst();
  if (stored) return stored.private_key;
  const { privateKey } = await generate('rsa', { modulusLength: bits });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await db
    .insertInto('signing_keys')
    .values({ name, private_key: pem, created_at: clock.now() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const kept = await db.selectFrom('signing_keys').select('private_key').where('name', '=', name).executeTakeFirstOrThrow();
  return kept.private_key;
}
