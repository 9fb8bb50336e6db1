// The server key of two-factor login (TOTP_KEY): TOTP secrets are stored encrypted under it (AES-256-GCM, bound to
// their account), and recovery codes as an HMAC under a second key derived from it. A copy of the database alone
// therefore yields no secret and no recovery code.
import { createHmac } from 'node:crypto';
import { deriveKey, SealedBox } from '../crypto/sealed-box.ts';

export class SecretBox {
  private readonly secrets: SealedBox;
  private readonly hashKey: Buffer;

  constructor(serverKey: string) {
    this.secrets = new SealedBox(serverKey, 'skin service: two-factor secrets');
    this.hashKey = deriveKey(serverKey, 'skin service: two-factor recovery codes');
  }

  /** The account id is authenticated with the secret (a row copied to another account does not open). */
  seal(secret: Buffer, userId: number): string {
    return this.secrets.seal(secret, `user:${userId}`);
  }

  open(stored: string, userId: number): Buffer {
    const secret = this.secrets.open(stored, `user:${userId}`);
    // The operator changed TOTP_KEY (or instances run with different ones): say so in the log, not in the answer.
    if (secret === null) throw new Error('A stored two-factor secret does not decrypt: TOTP_KEY differs from the key it was stored under');
    return secret;
  }

  /** How a recovery code is stored. */
  hash(code: string): string {
    return createHmac('sha256', this.hashKey).update(code).digest('hex');
  }
}
