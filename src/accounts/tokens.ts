// HS256 JWTs with claims sub (user id), sId (session row), iat, exp and iss. The algorithm is pinned on verify.
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { type Clock, unixSeconds } from '../clock.ts';
import { unauthorized } from '../http/envelope.ts';

export interface TokenClaims {
  userId: number;
  sessionId: number;
}

// Checking a signature costs ~200 us; a token's signature never changes, so a checked one is remembered.
// Expiry is still checked on every use, and revocation by the session lookup of the authentication hook.
const VERIFIED_CACHE_SIZE = 10_000;

export class Tokens {
  private readonly key: Promise<CryptoKey>;
  private readonly verified = new Map<string, TokenClaims & { expiresAt: number }>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {
    // Imported once: jose would import a raw key again on every call.
    this.key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  get lifetimeMs() {
    return this.ttlSeconds * 1000;
  }

  async sign(claims: TokenClaims): Promise<string> {
    const iat = unixSeconds(this.clock.now());
    // sub is an integer, as interface.md 2.2 gives it, so it goes in the payload rather than through setSubject.
    return new SignJWT({ sub: claims.userId, sId: claims.sessionId } as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setIssuer(this.issuer)
      .sign(await this.key);
  }

  async verify(token: string): Promise<TokenClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt <= this.clock.now()) throw unauthorized('accounts.tokenExpired');
      return { userId: known.userId, sessionId: known.sessionId };
    }
    const claims = await this.verifySignatureAndClaims(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
    return { userId: claims.userId, sessionId: claims.sessionId };
  }

  private async verifySignatureAndClaims(token: string): Promise<TokenClaims & { expiresAt: number }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: new Date(this.clock.now()),
      }));
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw unauthorized(expired ? 'accounts.tokenExpired' : 'accounts.tokenInvalid');
    }
    const { sub, sId } = payload as { sub?: unknown; sId?: unknown };
    if (!Number.isSafeInteger(sub) || !Number.isSafeInteger(sId)) throw unauthorized('accounts.tokenInvalid');
    return { userId: sub as number, sessionId: sId as number, expiresAt: payload.exp! * 1000 };
  }
}
