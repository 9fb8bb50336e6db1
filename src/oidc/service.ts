// Logging in with any OpenID Connect provider of OIDC_PROVIDERS, and linking one to an account (contract section 26).
// HTTP-free: the routes call these. The request's state and the login's one-time code, bound to the browser that
// began, are every external login's (src/external-login/flows.ts, shared with Discord); the protocol is openid-client's
// (client.ts). What is this folder's: the identities (issuer and `sub`) linked to accounts.
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/authenticate.ts';
import type { Credentials, Reauthentication } from '../accounts/credentials.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { userByIdentifier } from '../accounts/identifiers.ts';
import { NO_PASSWORD } from '../accounts/passwords.ts';
import { LEVELS, levelOfUser } from '../accounts/standing.ts';
import type { Acting } from '../audit/acting.ts';
import { type Begun, type CallbackOutcome, ended, linkableUser, LoginFlows } from '../external-login/flows.ts';
import { ApiError, forbidden, message, notFound } from '../http/envelope.ts';
import { queueSecurityMail } from '../mail/outbox.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import { type OidcClient, OidcFailure, type OidcIdentity } from './client.ts';
import { OidcRegistrations, type RegistrationDeps } from './registration.ts';

/** Authorization requests begun per client address: each one writes a row that lives 10 minutes. */
export const OIDC_STARTS_PER_ADDRESS: RateRule = {
  name: 'oidc-start-ip',
  limit: 30,
  windowMs: 15 * 60_000,
  message: 'oidc.tooManyStarts',
  perClientAddress: true,
};

/** Wrong login codes per client address (contract section 15). */
export const OIDC_CODE_FAILURES_PER_ADDRESS: RateRule = {
  name: 'oidc-code-fail-ip',
  limit: 10,
  windowMs: 15 * 60_000,
  message: 'limits.codeFailuresPerAddress',
  perClientAddress: true,
};

/** Where the web app exchanges a login's one-time code, and says how a callback ended. */
export const OIDC_PAGE_PATH = '/oidc';

/**
 * Why a callback ended without linking or logging in; the page at /oidc?problem= says it in words. As Discord's
 * (src/discord/service.ts), and `untrusted`: the provider's ID token failed a check (signature, issuer, audience,
 * expiry, nonce).
 */
export type CallbackProblem = 'denied' | 'refused' | 'state' | 'taken' | 'unavailable' | 'account' | 'browser' | 'untrusted';

export type { Begun, CallbackOutcome } from '../external-login/flows.ts';

/** A provider as the pages show it: its button, while its discovery has answered. */
export interface ProviderEntry {
  id: string;
  name: string;
  register: boolean;
}

export interface OidcDeps {
  db: Kysely<Database>;
  clock: Clock;
  clients: OidcClient[];
  tokens: Tokens;
  credentials: Credentials;
  limiter: RateLimiter;
  publicUrl: string;
  log: { warn(details: object, message: string): void };
  /** Wakes the mail worker after a transaction that queued mail has committed. */
  mailQueued: () => void;
  /** Registration through a provider (registration.ts): what creating an account needs. */
  registration?: RegistrationDeps;
}

/** The provider column's value for requests and codes of provider `id`. */
const columnOf = (id: string) => `oidc:${id}`;

export class OidcService {
  private readonly flows: LoginFlows;
  /** Registration through a provider: the ticket between the callback and the page, and the account it makes. */
  readonly registrations: OidcRegistrations;

  constructor(private readonly deps: OidcDeps) {
    this.registrations = new OidcRegistrations(deps, deps.registration ?? null);
    this.flows = new LoginFlows(deps, {
      starts: OIDC_STARTS_PER_ADDRESS,
      codeFailures: OIDC_CODE_FAILURES_PER_ADDRESS,
      messages: { codeUnusable: 'oidc.codeUnusable', secondFactorNeeded: 'oidc.secondFactorNeeded', totpWrong: 'oidc.totpWrong' },
      owns: (provider) => provider.startsWith('oidc:'),
    });
  }

  /** The providers whose discovery has answered (one that has not is asked again, and shown once it answers). */
  providers(): ProviderEntry[] {
    return this.deps.clients
      .filter((client) => client.poke())
      .map(({ settings }) => ({ id: settings.id, name: settings.name, register: settings.register }));
  }

  private client(id: string): OidcClient {
    const client = this.deps.clients.find((candidate) => candidate.id === id);
    if (!client) throw notFound('oidc.unknownProvider');
    return client;
  }

  /** Begins a login with provider `id`; while its discovery has not answered, the page that says so. */
  async startLogin(id: string, clientAddress: string): Promise<Begun> {
    try {
      return await this.begin(this.client(id), 'login', null, clientAddress);
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      return { url: this.problem('unavailable'), browserNonce: null };
    }
  }

  /**
   * Begins a registration through provider `id` (OIDC_{ID}_REGISTER=true, and registration not closed); otherwise, or
   * while its discovery has not answered, the registration page that says why.
   */
  async startRegistration(id: string, clientAddress: string): Promise<Begun> {
    const client = this.client(id);
    const refusal = await this.registrations.refusal(client);
    if (refusal) return { url: this.registrations.problemPage(refusal), browserNonce: null };
    try {
      return await this.begin(client, 'register', null, clientAddress);
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      return { url: this.problem('unavailable'), browserNonce: null };
    }
  }

  /**
   * Begins linking the caller's account to an identity at provider `id`, once they proved it is them (the password,
   * and the second factor when two-factor login is on; a wrong one counts as a failed login).
   */
  async startLink(caller: Caller, id: string, proof: Reauthentication, clientAddress: string): Promise<Begun> {
    const client = this.client(id);
    await this.deps.credentials.requireOwner(caller.user.id, proof, clientAddress, {
      passwordWrong: 'oidc.passwordWrong',
      needsCode: 'oidc.needsCode',
      codeWrong: 'oidc.codeWrong',
    });
    try {
      return await this.begin(client, 'link', caller.user.id, clientAddress);
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      throw new ApiError(503, message('oidc.unavailable'), { 'retry-after': '30' });
    }
  }

  private async begin(
    client: OidcClient,
    purpose: 'link' | 'login' | 'register',
    userId: number | null,
    clientAddress: string,
  ): Promise<Begun> {
    const secrets = client.newRequest();
    // Throws OidcFailure while the provider's discovery has not answered.
    const url = await client.authorizeUrl(secrets);
    const browserNonce = await this.flows.begin(columnOf(client.id), purpose, userId, secrets, clientAddress);
    return { url, browserNonce };
  }

  /**
   * The provider sent the browser back to provider `id`'s callback with the query `search` (with its question mark): links the
   * account, or hands a login its one-time code. Answers where the browser goes next; never throws for anything the
   * request or the provider did, and changes nothing unless it all worked.
   */
  async callback(id: string, search: string, state: unknown, browserNonce: string | undefined): Promise<CallbackOutcome> {
    const client = this.client(id);
    const { request, outcome } = await this.flows.takeOrEnd(columnOf(id), state, browserNonce, (problem) => this.problem(problem));
    if (outcome) return outcome;
    let identity: OidcIdentity;
    try {
      // The state was checked by taking its row; openid-client compares it again with the one it was given.
      identity = await client.identityOf(search, {
        state: state as string,
        codeVerifier: request.codeVerifier,
        nonce: request.nonce ?? '',
      });
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      this.deps.log.warn({ err: error, cause: error.cause, provider: id }, 'OpenID Connect login failed');
      return ended(this.problem(error.kind));
    }
    if (request.purpose === 'link' && request.userId !== null) return ended(await this.link(client, request.userId, identity));
    if (request.purpose === 'register') {
      // An identity linked already logs its account in, as from the login button.
      const linked = await this.linkedTo(identity);
      if (!linked) return this.registrations.ticket(client, identity, request.browserHash);
    }
    return this.loginCode(client, identity, request.browserHash);
  }

  private async link(client: OidcClient, userId: number, identity: OidcIdentity): Promise<string> {
    const { clock } = this.deps;
    return this.flows.link(
      async (trx) => {
        const user = await linkableUser(trx, userId, clock.now());
        if (!user) return 'account' as const;
        const holder = await trx
          .selectFrom('oidc_identities')
          .select('user_id')
          .where('issuer', '=', identity.issuer)
          .where('subject', '=', identity.subject)
          .executeTakeFirst();
        if (holder && holder.user_id !== userId) return 'taken' as const;
        const now = clock.now();
        // One identity per provider per account: a new one replaces the one linked before.
        const replaced = await trx
          .deleteFrom('oidc_identities')
          .where('user_id', '=', userId)
          .where('provider', '=', client.id)
          .returning('subject')
          .executeTakeFirst();
        await trx
          .insertInto('oidc_identities')
          .values({
            user_id: userId,
            provider: client.id,
            issuer: identity.issuer,
            subject: identity.subject,
            name: identity.name,
            created_at: now,
          })
          .execute();
        // The player hears of every new way into their account, in case it was not them.
        await queueSecurityMail(
          trx,
          now,
          user,
          { kind: 'identityLinked', provider: client.settings.name, name: identity.name },
          this.deps.publicUrl,
        );
        await recordAudit(trx, now, {
          actor: actorOf(user),
          action: 'oidc.link',
          target: user.id,
          details: {
            provider: client.id,
            name: identity.name,
            ...(replaced && replaced.subject !== identity.subject ? { replaced: true } : {}),
          },
        });
        return null;
      },
      (problem) => this.problem(problem),
    );
  }

  /** A linked identity gets a one-time code for the page, bound to the browser that began; an unlinked one the login page's explanation. */
  private linkedTo(identity: OidcIdentity) {
    return this.deps.db
      .selectFrom('oidc_identities')
      .select(['id', 'user_id', 'name'])
      .where('issuer', '=', identity.issuer)
      .where('subject', '=', identity.subject)
      .executeTakeFirst();
  }

  private async loginCode(client: OidcClient, identity: OidcIdentity, browserHash: string): Promise<CallbackOutcome> {
    const { db, publicUrl } = this.deps;
    const linked = await this.linkedTo(identity);
    if (!linked) return { location: `${publicUrl}/login?oidc=not-linked`, keepNonce: false };
    const code = await db.transaction().execute(async (trx) => {
      const issued = await this.flows.issueCode(trx, columnOf(client.id), linked.user_id, browserHash);
      // Names change at the provider; the profile shows the current one.
      if (linked.name !== identity.name)
        await trx.updateTable('oidc_identities').set({ name: identity.name }).where('id', '=', linked.id).execute();
      return issued;
    });
    return { location: `${publicUrl}${OIDC_PAGE_PATH}?code=${code}`, keepNonce: true };
  }

  private problem(problem: CallbackProblem): string {
    return `${this.deps.publicUrl}${OIDC_PAGE_PATH}?problem=${problem}`;
  }

  /** The page's one-time code for a session, with the rules of a password login; audited as a login with the provider. */
  async exchange(code: string, totp: string | undefined, browserNonce: string | undefined, clientAddress: string) {
    const { jwt, url, user, provider } = await this.flows.exchange(code, totp, browserNonce, clientAddress);
    await recordAudit(this.deps.db, this.deps.clock.now(), {
      actor: actorOf(user),
      action: 'auth.login',
      target: user.id,
      details: { provider: provider.slice('oidc:'.length) },
    });
    return { jwt, url };
  }

  /** Unlinks the caller's identity at provider `id`, once they proved it is them (as linking asks). */
  async unlink(caller: Caller, id: string, proof: Reauthentication, clientAddress: string): Promise<void> {
    await this.deps.credentials.requireOwner(caller.user.id, proof, clientAddress, {
      passwordWrong: 'oidc.passwordWrong',
      needsCode: 'oidc.needsCode',
      codeWrong: 'oidc.codeWrong',
    });
    const { db, clock } = this.deps;
    const removed = await db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('oidc_identities')
        .where('user_id', '=', caller.user.id)
        .where('provider', '=', id)
        .returning(['name'])
        .executeTakeFirst();
      if (!row) return false;
      await recordAudit(trx, clock.now(), {
        actor: actorOf(caller.user),
        action: 'oidc.unlink',
        target: caller.user.id,
        details: { provider: id, name: row.name },
      });
      return true;
    });
    if (!removed) throw notFound('oidc.notLinked');
  }

  /**
   * An admin unlinks a player's identity at provider `id` (players below the admin's own level; docs/decisions.md).
   * The last way into a password-less account (no other identity, no Discord, no passkey) goes only when `last` says
   * the admin knows it (else a 409 with data.last_way): the player then sets a password by the reset, at their mail.
   */
  async unlinkFor(acting: Acting, identifier: string, id: string, last: boolean): Promise<{ id: number }> {
    const { db, clock } = this.deps;
    const target = await userByIdentifier(db, identifier);
    const targetLevel = await levelOfUser(db, target, clock.now());
    if (!acting.operator && (acting.level < LEVELS.admin || targetLevel >= acting.level)) throw forbidden('oidc.belowOwnLevel');
    const removed = await db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('oidc_identities')
        .where('user_id', '=', target.id)
        .where('provider', '=', id)
        .returning(['name'])
        .executeTakeFirst();
      if (!row) return false;
      if (!last && target.password === NO_PASSWORD && target.dsid === null) {
        const other = await trx
          .selectFrom('oidc_identities')
          .select('id')
          .where('user_id', '=', target.id)
          .union(trx.selectFrom('passkeys').select('id').where('user_id', '=', target.id))
          .executeTakeFirst();
        // Thrown, so the transaction puts the identity back.
        if (!other) throw new ApiError(409, message('oidc.lastWay'), {}, { last_way: true });
      }
      await recordAudit(trx, clock.now(), {
        actor: acting.actor,
        action: 'oidc.unlink',
        target: target.id,
        details: { provider: id, name: row.name, by: acting.operator ? 'operator' : 'admin' },
      });
      return true;
    });
    if (!removed) throw notFound('oidc.notLinked');
    return { id: target.id };
  }
}
