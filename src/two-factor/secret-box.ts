// The server key of two-factor login (TOTP_KEY): TOTP secrets are stored encrypted under it (AES-256-GCM, bound to
// their account), and recovery codes as an HMAC under a second key derived from it. A copy of the database alone
// therefore yields no secret and no recovery code.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

const derive = (key: string, purpose: string) => Buffer.from(hkdfSync('sha256', Buffer.from(key, 'utf8'), Buffer.alloc(0), purpose, 32));

export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(serverKey: string) {
    this.encryptionKey = derive(serverKey, 'skin service: two-factor secrets');
    this.hashKey = derive(serverKey, 'skin service: two-factor recovery codes');
  }

  /** `v1.` and base64url of nonce, tag and ciphertext; the account id is authenticated with it (a row copied to
   * another account does not open). */
  seal(secret: Buffer, userId: number): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, nonce);
    cipher.setAAD(Buffer.from(`user:${userId}`));
    const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
    return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  open(stored: string, userId: number): Buffer {
    const [version, body] = stored.split('.');
    if (version !== VERSION || body === undefined) throw new Error('A stored two-factor secret has an unknown format');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(`user:${userId}`));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      // The operator changed TOTP_KEY (or instances run with different ones): say so in the log, not in the answer.
      throw new Error('A stored two-factor secret does not decrypt: TOTP_KEY differs from the key it was stored under');
    }
  }

  /** How a recovery code is stored. */
  hash(code: string): string {
    return createHmac('sha256', this.hashKey).update(code).digest('hex');
  }
}
