// Secrets kept in the database encrypted under a server key (TOTP_KEY): AES-256-GCM under a key derived for one
// purpose, and bound to the row they belong to. A copy of the database alone therefore yields none of them.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key of its own for each purpose, so that no two uses ever share one. */
export const deriveKey = (serverKey: string, purpose: string) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(serverKey, 'utf8'), Buffer.alloc(0), purpose, 32));

export class SealedBox {
  private readonly key: Buffer;

  constructor(serverKey: string, purpose: string) {
    this.key = deriveKey(serverKey, purpose);
  }

  /** `v1.` and base64url of nonce, tag and ciphertext; `owner` (say `user:12`) is authenticated with it, so a value
   * copied to another row does not open. */
  seal(secret: Buffer, owner: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(owner));
    const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The secret; null when the value does not open under this key for this owner (the server key changed). */
  open(stored: string, owner: string): Buffer | null {
    const [version, body] = stored.split('.');
    if (version !== VERSION || body === undefined) throw new Error('A sealed value has an unknown format');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(owner));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      return null;
    }
  }
}
