// Player certificates for chat signing (Minecraft 1.19+), as Mojang's services answer them: a fresh RSA-2048 pair
// for the player, and the service key's signatures over its public half. Nothing is stored: a new pair each time
// keeps no player's private key at rest.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { ServiceKey } from '../signing/service-key.ts';
import type { PlayerCertificates } from './shapes.ts';

const generate = promisify(generateKeyPair);

export const CERTIFICATE_LIFETIME_MS = 48 * 3600_000;
export const CERTIFICATE_REFRESH_MS = 36 * 3600_000;

/**
 * PEM as the game parses it: the markers must say `RSA PRIVATE KEY` / `RSA PUBLIC KEY` (it looks for them) although
 * the bodies are PKCS#8 and SPKI, in 76-column base64 as Java's MIME encoder writes it.
 */
const gamePem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .match(/.{1,76}/g)!
    .join('\n')}\n-----END ${label}-----\n`;

export async function playerCertificates(serviceKey: ServiceKey, playerUuid: string, nowMs: number): Promise<PlayerCertificates> {
  const { privateKey, publicKey } = await generate('rsa', { modulusLength: 2048 });
  const publicDer = publicKey.export({ type: 'spki', format: 'der' });
  const privateDer = privateKey.export({ type: 'pkcs8', format: 'der' });
  const expiresAt = nowMs + CERTIFICATE_LIFETIME_MS;
  const publicPem = gamePem('RSA PUBLIC KEY', publicDer);

  // Version 2 (1.19.1+): the 16 bytes of the player's UUID, the expiry in ms as a big-endian 64-bit integer, the DER key.
  const expiry = Buffer.alloc(8);
  expiry.writeBigInt64BE(BigInt(expiresAt));
  const signedV2 = Buffer.concat([Buffer.from(playerUuid.replace(/-/g, ''), 'hex'), expiry, publicDer]);
  // Version 1 (1.19.0): the expiry in ms as decimal text followed by the public key's PEM.
  const signedV1 = `${expiresAt}${publicPem}`;

  return {
    keyPair: { privateKey: gamePem('RSA PRIVATE KEY', privateDer), publicKey: publicPem },
    publicKeySignature: serviceKey.sign(signedV1),
    publicKeySignatureV2: serviceKey.sign(signedV2),
    expiresAt: new Date(expiresAt).toISOString(),
    refreshedAfter: new Date(nowMs + CERTIFICATE_REFRESH_MS).toISOString(),
  };
}
