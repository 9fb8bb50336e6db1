// Player certificates for chat signing (Minecraft 1.19+), as Mojang's services answer them: an RSA-2048 pair for the
// profile, and the service key's signatures over its public half. One pair per profile is kept in the database,
// its private key sealed under TOTP_KEY, and answered again until `refreshedAfter`: a new pair costs a pool thread
// a quarter of a second, so a player asking again must not make one (contract section 15), and every instance
// answers the same pair.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely, Selectable } from 'kysely';
import type { Clock } from '../clock.ts';
import { SealedBox } from '../crypto/sealed-box.ts';
import type { Database, PlayerCertificatesTable } from '../database/schema.ts';
import type { RateRule } from '../ratelimit/limiter.ts';
import type { ServiceKey } from '../signing/service-key.ts';
import { CERTIFICATE_LIFETIME_MS, recordCertifiedKey } from './certified-keys.ts';
import type { PlayerCertificates } from './shapes.ts';

const generate = promisify(generateKeyPair);

export const CERTIFICATE_REFRESH_MS = 36 * 3600_000;

/** Requests per access token; a game asks once a session, a launcher loop or a script many times. */
export const CERTIFICATES_PER_TOKEN: RateRule = {
  name: 'certificates-token',
  limit: 10,
  windowMs: 60_000,
  message: 'limits.certificatesPerToken',
};

type StoredPair = Selectable<PlayerCertificatesTable>;

/**
 * PEM as the game parses it: the markers must say `RSA PRIVATE KEY` / `RSA PUBLIC KEY` (it looks for them) although
 * the bodies are PKCS#8 and SPKI, in 76-column base64 as Java's MIME encoder writes it.
 */
const gamePem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .match(/.{1,76}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

/** What the private key is bound to when sealed: a value copied to another profile's row does not open. */
const sealedFor = (profileUuid: string) => `player certificate:${profileUuid}`;

export class PlayerCertificateKeys {
  private readonly box: SealedBox;
  /** Pairs being made in this process, per profile: requests arriving together wait for one pair. */
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly serviceKey: () => Promise<ServiceKey>,
    totpKey: string,
  ) {
    this.box = new SealedBox(totpKey, 'skin service: player certificate keys');
  }

  /** The profile's pair while it need not be refreshed, else a new one (stored before it is answered). */
  async forProfile(userId: number, profileUuid: string): Promise<PlayerCertificates> {
    const now = this.clock.now();
    const kept = await this.read(profileUuid);
    if (kept && kept.refreshed_after > now) {
      const answer = this.answer(kept);
      if (answer) return answer;
      // Sealed under another TOTP_KEY (the operator changed it): a certificate is cheap to replace, unlike 2FA secrets.
      await this.db.deleteFrom('player_certificates').where('id', '=', kept.id).execute();
    }
    let making = this.making.get(profileUuid);
    if (!making) {
      making = this.make(userId, profileUuid, now).finally(() => this.making.delete(profileUuid));
      this.making.set(profileUuid, making);
    }
    await making;
    const stored = await this.read(profileUuid);
    const answer = stored && this.answer(stored);
    if (!answer) throw new Error('A player certificate was stored under another TOTP_KEY: every instance needs the same one');
    return answer;
  }

  /**
   * Stores a new pair unless another request or instance stored a fresh one meanwhile: insert, or replace only a
   * pair due for refresh, in one statement; whatever is stored afterwards is the one every caller answers.
   */
  private async make(userId: number, profileUuid: string, now: number): Promise<void> {
    const { privateKey, publicKey } = await generate('rsa', { modulusLength: 2048 });
    const publicDer = publicKey.export({ type: 'spki', format: 'der' });
    const expiresAt = now + CERTIFICATE_LIFETIME_MS;

    // Version 2 (1.19.1+): the 16 bytes of the player's UUID, the expiry in ms as a big-endian 64-bit integer, the DER key.
    const expiry = Buffer.alloc(8);
    expiry.writeBigInt64BE(BigInt(expiresAt));
    const signedV2 = Buffer.concat([Buffer.from(profileUuid.replace(/-/g, ''), 'hex'), expiry, publicDer]);
    // Version 1 (1.19.0): the expiry in ms as decimal text followed by the public key's PEM.
    const signedV1 = `${expiresAt}${gamePem('RSA PUBLIC KEY', publicDer)}`;
    const serviceKey = await this.serviceKey();

    const pair = {
      private_key: this.box.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), sealedFor(profileUuid)),
      public_key: publicDer.toString('base64'),
      signature_v1: serviceKey.sign(signedV1),
      signature_v2: serviceKey.sign(signedV2),
      refreshed_after: now + CERTIFICATE_REFRESH_MS,
      expires_at: expiresAt,
    };
    await this.db
      .insertInto('player_certificates')
      .values({ user_id: userId, profile_uuid: profileUuid, ...pair })
      .onConflict((conflict) => conflict.column('profile_uuid').doUpdateSet(pair).where('player_certificates.refreshed_after', '<=', now))
      .execute();
    // Whichever pair is stored now is the one answered: its public key joins the profile's certified keys, which
    // outlive the next refresh so that chat reports of messages it signed still verify (certified-keys.ts).
    const stored = await this.read(profileUuid);
    if (stored) await recordCertifiedKey(this.db, stored);
  }

  private read(profileUuid: string): Promise<StoredPair | undefined> {
    return this.db.selectFrom('player_certificates').selectAll().where('profile_uuid', '=', profileUuid).executeTakeFirst();
  }

  /** The stored pair as the game receives it; null when its private key does not open under this TOTP_KEY. */
  private answer(stored: StoredPair): PlayerCertificates | null {
    const privateDer = this.box.open(stored.private_key, sealedFor(stored.profile_uuid));
    if (!privateDer) return null;
    return {
      keyPair: {
        privateKey: gamePem('RSA PRIVATE KEY', privateDer),
        publicKey: gamePem('RSA PUBLIC KEY', Buffer.from(stored.public_key, 'base64')),
      },
      publicKeySignature: stored.signature_v1,
      publicKeySignatureV2: stored.signature_v2,
      expiresAt: new Date(stored.expires_at).toISOString(),
      refreshedAfter: new Date(stored.refreshed_after).toISOString(),
    };
  }
}
