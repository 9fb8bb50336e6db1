// Passkeys (contract section 21), HTTP-free: a player adds, lists, renames and removes them; anyone logs in with one.
// @simplewebauthn/server verifies the WebAuthn ceremonies; this module keeps the challenges (single use, five minutes,
// in the database so that any instance can finish what another began), the limits and the rules of a login.
// Every passkey is made with user verification required, so a login with one counts as both factors.
import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Credentials, Reauthentication } from '../accounts/credentials.ts';
import { userByIdentifier } from '../accounts/identifiers.ts';
import { importedFormat } from '../accounts/imported-passwords.ts';
import { lockedCount } from '../accounts/locked-count.ts';
import { accountFailureKey, type LoginFailures } from '../accounts/login-failures.ts';
import { LEVELS, levelOfUser, standingProblem, accountPerms, standingRefusal } from '../accounts/standing.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { openWebSession } from '../accounts/web-session.ts';
import type { Acting } from '../audit/acting.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import { type Clock, unixSeconds } from '../clock.ts';
import { tokenHash } from '../http/secrets.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, badRequest, conflict, forbidden, notFound, unauthorized } from '../http/envelope.ts';
import { namedCredentialOf } from '../http/shapes/named-credential.ts';
import { MAX_PASSKEY_NAME, MAX_PASSKEYS, type PasskeyRecord } from '../http/shapes/passkey.ts';
import { queueSecurityMail } from '../mail/outbox.ts';
import { RULES, type RateLimiter } from '../ratelimit/limiter.ts';

/** How long a challenge may be answered. */
export const CHALLENGE_MS = 5 * 60_000;

const CHALLENGE_UNUSABLE = 'passkeys.challengeUnusable';
const RESPONSE_REFUSED = 'passkeys.responseRefused';

export interface PasskeyDeps {
  db: Kysely<Database>;
  clock: Clock;
  failures: LoginFailures;
  credentials: Credentials;
  limiter: RateLimiter;
  tokens: Tokens;
  /** PUBLIC_URL: its host is the relying party id, its origin the only one a response may come from. */
  publicUrl: string;
  /** SERVER_NAME: the relying party's name the authenticator shows. */
  serverName: string;
  mailQueued: () => void;
}

const randomId = () => randomBytes(32).toString('base64url');

/** The challenge a response signed, read from its clientDataJSON; null when that is not readable JSON with one. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' ? challenge : null;
  } catch {
    return null;
  }
}

export class Passkeys {
  private readonly rpId: string;
  private readonly origin: string;

  constructor(private readonly deps: PasskeyDeps) {
    const url = new URL(deps.publicUrl);
    this.rpId = url.hostname;
    this.origin = url.origin;
  }

  /** The caller's passkeys, oldest first. */
  async list(caller: Caller): Promise<PasskeyRecord[]> {
    const rows = await this.deps.db
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
      .where('user_id', '=', caller.user.id)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ...namedCredentialOf(row), synced: Number(row.backed_up) === 1 }));
  }

  /**
   * The options for navigator.credentials.create(): a resident key with user verification, for this site, excluding
   * the caller's passkeys; the challenge is kept for the caller's session, for five minutes. 403 at MAX_PASSKEYS.
   * A passkey is a new way in, so the caller proves it is them first, as to link Discord (a stolen session alone must
   * not add one): the password, and the two-factor code when that is on; a wrong one counts as a failed login.
   */
  async creationOptions(caller: Caller, proof: Reauthentication, clientAddress: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const { db, clock, serverName, credentials } = this.deps;
    const existing = await db
      .selectFrom('passkeys')
      .select(['credential_id', 'user_handle', 'transports'])
      .where('user_id', '=', caller.user.id)
      .execute();
    if (existing.length >= MAX_PASSKEYS) throw forbidden('passkeys.limit', { max: MAX_PASSKEYS });
    await credentials.requireOwner(caller.user.id, proof, clientAddress, {
      passwordWrong: 'passkeys.passwordWrong',
      needsCode: 'passkeys.addNeedsCode',
      codeWrong: 'passkeys.addCodeWrong',
    });
    // One handle per account, so that an authenticator keeps one passkey per account and site.
    const handle = existing[0]?.user_handle ?? randomId();
    const name = caller.user.username ?? caller.user.mail;
    const options = await generateRegistrationOptions({
      rpName: serverName,
      rpID: this.rpId,
      userName: name,
      userDisplayName: name,
      userID: Buffer.from(handle, 'base64url'),
      timeout: CHALLENGE_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await db
      .insertInto('passkey_challenges')
      .values({
        key_hash: tokenHash(options.challenge),
        challenge: options.challenge,
        user_handle: handle,
        session_id: caller.session.id,
        expires_at: clock.now() + CHALLENGE_MS,
      })
      .execute();
    return options;
  }

  /**
   * Adds the passkey the browser made for options from creationOptions() in the same session: 400 for a challenge
   * that is not this session's or no longer usable, and for a response that does not verify (another origin or
   * relying party, no user verification); 409 for a passkey already added. Audited; the player is mailed.
   */
  async add(caller: Caller, response: RegistrationResponseJSON, rawName: string): Promise<PasskeyRecord> {
    const { db, clock } = this.deps;
    const name = checkedName(rawName);
    const challenge = await this.takeChallenge(signedChallenge(response.response.clientDataJSON), caller.session.id);
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verified?.verified) throw badRequest(RESPONSE_REFUSED);
    const { credential, credentialBackedUp, aaguid } = verified.registrationInfo;
    const userId = caller.user.id;
    const now = clock.now();
    const id = await db
      .transaction()
      .execute(async (trx) => {
        if ((await lockedCount(trx, 'passkeys', userId)) >= MAX_PASSKEYS) throw forbidden('passkeys.limit', { max: MAX_PASSKEYS });
        const inserted = await trx
          .insertInto('passkeys')
          .values({
            credential_id: credential.id,
            user_id: userId,
            user_handle: challenge.user_handle!,
            public_key: Buffer.from(credential.publicKey).toString('base64url'),
            counter: credential.counter,
            transports: JSON.stringify(credential.transports ?? []),
            backed_up: credentialBackedUp ? 1 : 0,
            aaguid,
            name,
            created_at: now,
            last_used_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await recordAudit(trx, now, {
          actor: caller.actor,
          action: 'passkey.add',
          target: userId,
          details: { id: inserted.id, name },
        });
        await queueSecurityMail(trx, now, caller.user, { kind: 'passkeyAdded', name }, this.deps.publicUrl);
        return inserted.id;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw conflict('passkeys.alreadyAdded');
        throw error;
      });
    this.deps.mailQueued();
    return { id, name, created: unixSeconds(now), last_used: null, synced: credentialBackedUp };
  }

  /** Renames the caller's passkey `id`; 404 when the caller has none of that id. */
  async rename(caller: Caller, id: number, rawName: string): Promise<void> {
    const name = checkedName(rawName);
    const result = await this.deps.db
      .updateTable('passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('user_id', '=', caller.user.id)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) throw notFound('passkeys.notFound', { id });
  }

  /**
   * Removes the caller's passkey `id` once the account's password confirms it (a wrong one counts on the login
   * limits). An account whose password cannot be checked (imported from a service whose hash this one cannot verify)
   * sets one through the reset first: 409. Audited.
   */
  async remove(caller: Caller, id: number, password: string, clientAddress: string): Promise<void> {
    const { db, clock, failures } = this.deps;
    const userId = caller.user.id;
    const stored = await db.selectFrom('users').select('password').where('id', '=', userId).executeTakeFirstOrThrow();
    if (importedFormat(stored.password) === 'unusable') throw conflict('passkeys.passwordNeeded');
    const owned = await db.selectFrom('passkeys').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!owned) throw notFound('passkeys.notFound', { id });
    if (!(await failures.confirmOwnPassword(userId, password, clientAddress))) {
      throw unauthorized('passkeys.passwordWrong', { field: 'password' });
    }
    await db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).returning('name').executeTakeFirst();
      if (!gone) throw notFound('passkeys.notFound', { id });
      await recordAudit(trx, clock.now(), {
        actor: caller.actor,
        action: 'passkey.remove',
        target: userId,
        details: { id, name: gone.name },
      });
    });
  }

  /**
   * An administrator removes every passkey of a player below their own level (a lost device), or the operator of
   * anyone; audited. Answers how many were removed.
   */
  async removeAllFor(acting: Acting, identifier: string): Promise<{ id: number; removed: number }> {
    const { db, clock } = this.deps;
    const target = await userByIdentifier(db, identifier);
    const targetLevel = await levelOfUser(db, target, clock.now());
    if (!acting.operator && (acting.level < LEVELS.admin || targetLevel >= acting.level)) throw forbidden('passkeys.belowOwnLevel');
    const removed = await db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('passkeys').where('user_id', '=', target.id).returning(['id', 'name']).execute();
      if (gone.length > 0) {
        await recordAudit(trx, clock.now(), {
          actor: acting.actor,
          action: 'passkey.remove',
          target: target.id,
          details: { ids: gone.map((row) => row.id), by: acting.operator ? 'operator' : 'admin' },
        });
      }
      return gone.length;
    });
    return { id: target.id, removed };
  }

  /**
   * A login's challenge: its id and the options for navigator.credentials.get() (any of this site's passkeys, user
   * verification required). Counted per client address, as each one is a row until it ends.
   */
  async loginOptions(clientAddress: string): Promise<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const { db, clock, limiter } = this.deps;
    await limiter.take(RULES.passkeyChallengesPerAddress, clientAddress);
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      allowCredentials: [],
      userVerification: 'required',
      timeout: CHALLENGE_MS,
    });
    const challengeId = randomId();
    await db
      .insertInto('passkey_challenges')
      .values({
        key_hash: tokenHash(challengeId),
        challenge: options.challenge,
        user_handle: null,
        session_id: null,
        expires_at: clock.now() + CHALLENGE_MS,
      })
      .execute();
    return { challenge_id: challengeId, options };
  }

  /**
   * A login with a passkey: the same answer and the same account rules as the password login, without the second
   * factor (the passkey verified the user). 400 for an unusable challenge or a response that does not verify, 401
   * for a passkey this site does not know or whose signature counter went backwards (a cloned authenticator:
   * audited). Every refusal after the challenge counts on the login limits, before the passkey is checked.
   */
  async logIn(challengeId: string, response: AuthenticationResponseJSON, clientAddress: string): Promise<{ jwt: string; url: string }> {
    const { db, clock, failures, tokens, publicUrl } = this.deps;
    const challenge = await this.takeChallenge(challengeId, null);
    const found = await db
      .selectFrom('passkeys')
      .innerJoin('users', 'users.id', 'passkeys.user_id')
      .selectAll('users')
      .select([
        'passkeys.id as passkey_id',
        'passkeys.user_handle',
        'passkeys.public_key',
        'passkeys.counter',
        'passkeys.transports',
        'passkeys.name as passkey_name',
      ])
      .where('passkeys.credential_id', '=', response.id)
      .executeTakeFirst();
    if (!found) {
      // A passkey removed here (or never added): a failure on the address's limits, under a key of its own.
      const attempt = await failures.take(`passkey:${tokenHash(response.id)}`, clientAddress);
      await attempt.failed(undefined);
      throw unauthorized('passkeys.unknown');
    }
    const {
      passkey_id: passkeyId,
      user_handle: handle,
      public_key: publicKey,
      counter,
      transports,
      passkey_name: passkeyName,
      ...user
    } = found;
    const attempt = await failures.take(accountFailureKey(user.id), clientAddress);
    const refuse = async (error: Error) => {
      await attempt.failed(user.id);
      return error;
    };
    if (response.response.userHandle !== undefined && response.response.userHandle !== handle)
      throw await refuse(badRequest(RESPONSE_REFUSED));
    // The stored counter is checked here rather than by the library, so that going backwards can be told apart.
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      requireUserVerification: true,
      credential: { id: response.id, publicKey: Buffer.from(publicKey, 'base64url'), counter: 0, transports: transportsOf(transports) },
    }).catch(() => null);
    if (!verified?.verified) throw await refuse(badRequest(RESPONSE_REFUSED));
    const stored = Number(counter);
    const { newCounter } = verified.authenticationInfo;
    const now = clock.now();
    if ((stored > 0 || newCounter > 0) && newCounter <= stored) {
      await recordAudit(db, now, {
        actor: actorOf(user),
        action: 'passkey.counter_regressed',
        target: user.id,
        details: { id: passkeyId, name: passkeyName, stored, received: newCounter },
      });
      throw await refuse(unauthorized('passkeys.counterRegressed'));
    }
    await db.updateTable('passkeys').set({ counter: newCounter, last_used_at: now }).where('id', '=', passkeyId).execute();
    await attempt.loggedIn();
    const problem = standingProblem({ ...user, level: accountPerms(user, now) }, ['unfinished']);
    if (problem) throw new ApiError(403, await standingRefusal(db, user, problem, now));
    return openWebSession(db, tokens, clock, publicUrl, user);
  }

  /**
   * Takes a challenge for good: the one whose key is `key` (a login's challenge_id, or the challenge a response signed
   * when adding), unexpired, and asked for by `sessionId` (null: a login). 400 when there is none.
   */
  private async takeChallenge(key: string | null, sessionId: number | null) {
    if (key === null) throw badRequest(CHALLENGE_UNUSABLE);
    const { db, clock } = this.deps;
    let taking = db.deleteFrom('passkey_challenges').where('key_hash', '=', tokenHash(key)).where('expires_at', '>', clock.now());
    taking = sessionId === null ? taking.where('session_id', 'is', null) : taking.where('session_id', '=', sessionId);
    const taken = await taking.returning(['challenge', 'user_handle']).executeTakeFirst();
    if (!taken) throw badRequest(CHALLENGE_UNUSABLE);
    return taken;
  }
}

function checkedName(rawName: string): string {
  const name = rawName.trim();
  if (name === '' || name.length > MAX_PASSKEY_NAME) throw badRequest('passkeys.nameInvalid', { field: 'name', max: MAX_PASSKEY_NAME });
  return name;
}

const transportsOf = (stored: string) => JSON.parse(stored) as AuthenticatorTransport[];
