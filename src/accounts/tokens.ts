// HS256 JWTs with claims sub (user id), sId (session row), iat, exp and iss. The algorithm is pinned on verify.
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { type Clock, unixSeconds } from '../clock.ts';
import { unauthorized } from '../http/envelope.ts';

export interface TokenClaims {
  userId: number;
  sessionId: number;
}

export class Tokens {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  get lifetimeMs() {
    return this.ttlSeconds * 1000;
  }

  sign(claims: TokenClaims): Promise<string> {
    const iat = unixSeconds(this.clock.now());
    // sub is an integer, as interface.md 2.2 gives it, so it goes in the payload rather than through setSubject.
    return new SignJWT({ sub: claims.userId, sId: claims.sessionId } as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .setIssuer(this.issuer)
      .sign(this.key);
  }

  async verify(token: string): Promise<TokenClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: new Date(this.clock.now()),
      }));
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw unauthorized(expired ? 'Token expired; log in again' : 'Invalid token; log in again');
    }
    const { sub, sId } = payload as { sub?: unknown; sId?: unknown };
    if (!Number.isSafeInteger(sub) || !Number.isSafeInteger(sId)) throw unauthorized('Invalid token; log in again');
    return { userId: sub as number, sessionId: sId as number };
  }
}
