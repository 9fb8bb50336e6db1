// Registration through an OpenID Connect provider (contract section 26): OIDC_{ID}_REGISTER=true, and the registration
// mode lets new accounts in (invitation codes still apply). The provider's callback creates nothing: what the provider
// vouched for (its identity, name and mail address) waits as a ticket bound to the browser that began, and the page
// /register/oidc?ticket= asks the player for the profile name (and, optionally, a password). Submitting it creates
// the account, finished at once, with the identity linked. A mail the provider says is verified skips the mail step
// (the player is logged in); any other is mailed a code as usual (the account logs in once it is confirmed). A mail
// address that any account here has is never taken over: the registration page says to log in and link instead.
// Without a password chosen, the account is password-less (passwords.ts NO_PASSWORD): it logs in through the
// provider, a passkey or an app password, and sets a password by the reset.
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { MailCodes } from '../accounts/codes.ts';
import { groupedCode } from '../accounts/codes.ts';
import type { ProfileRules } from '../accounts/create-account.ts';
import { hashPassword, NO_PASSWORD } from '../accounts/passwords.ts';
import { insertProfile, newProfileUuid, usernameColumns } from '../accounts/profile-rows.ts';
import { checkMail, checkNewUsername, checkPassword, mailKey } from '../accounts/rules.ts';
import type { Tokens } from '../accounts/tokens.ts';
import { openWebSession } from '../accounts/web-session.ts';
import type { AuditActor } from '../audit/audit.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { isUniqueViolation } from '../database/dialect.ts';
import type { Database } from '../database/schema.ts';
import { conflict, notFound, unauthorized } from '../http/envelope.ts';
import { tokenHash } from '../http/secrets.ts';
import type { Language } from '../i18n/languages.ts';
import { queueMail } from '../mail/outbox.ts';
import { verifyMailMessage } from '../mail/templates.ts';
import { RULES, type RateLimiter, type RateRule } from '../ratelimit/limiter.ts';
import type { OidcClient, OidcIdentity } from './client.ts';

/** How long the player has to pick the profile name once the provider sent them back. */
export const TICKET_LIFETIME_MS = 30 * 60_000;
const TICKET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Wrong registration tickets per client address (contract section 15: a secret of its own kind). */
export const OIDC_TICKET_FAILURES_PER_ADDRESS: RateRule = {
  name: 'oidc-ticket-fail-ip',
  limit: 10,
  windowMs: 15 * 60_000,
  message: 'limits.codeFailuresPerAddress',
  perClientAddress: true,
};

/** What creating an account through a provider needs besides the login's dependencies. */
export interface RegistrationDeps {
  codes: MailCodes;
  profileRules: ProfileRules;
  /** The registration mode and invitations (src/registration/service.ts). */
  admission: {
    mode(): Promise<'open' | 'invite' | 'closed'>;
    check(invite: string | undefined, clientAddress: string): Promise<void>;
    admit(trx: Transaction<Database>, invite: string | undefined, account: AuditActor, nowMs: number): Promise<void>;
  };
}

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  clients: OidcClient[];
  tokens: Tokens;
  limiter: RateLimiter;
  publicUrl: string;
  mailQueued: () => void;
}

/**
 * Why a registration through a provider cannot go on; the registration page at /register?oidc= says it in words:
 * `not-offered` the provider may not register (OIDC_{ID}_REGISTER), `closed` registration is closed here, `no-mail`
 * the provider gave no mail address, `mail-taken` an account here has that address (log in and link instead).
 */
export type RegistrationProblem = 'not-offered' | 'closed' | 'no-mail' | 'mail-taken';

/** What the page shows of a ticket: the provider, the address, whether it is verified, a name to start from. */
export interface TicketDetails {
  provider: string;
  mail: string;
  mail_verified: boolean;
  suggested_name: string;
}

/** The answer of a registration: logged in (`jwt`, the provider's verified mail) or a code mailed (`mailed`). */
export type Registered = { jwt: string; url: string; mailed: false } | { url: string; mailed: true; mail: string };

export class OidcRegistrations {
  constructor(
    private readonly deps: Deps,
    private readonly more: RegistrationDeps | null,
  ) {}

  /** Why provider `client` may not register anyone now, or null. */
  async refusal(client: OidcClient): Promise<RegistrationProblem | null> {
    if (!client.settings.register || this.more === null) return 'not-offered';
    return (await this.more.admission.mode()) === 'closed' ? 'closed' : null;
  }

  problemPage(problem: RegistrationProblem): string {
    return `${this.deps.publicUrl}/register?oidc=${problem}`;
  }

  /**
   * The callback of a registration, for an identity linked to nobody: the ticket for the page that asks the name, or
   * the registration page saying why not. Creates no account.
   */
  async ticket(client: OidcClient, identity: OidcIdentity, browserHash: string): Promise<{ location: string; keepNonce: boolean }> {
    const { db, clock, publicUrl } = this.deps;
    const ended = (problem: RegistrationProblem) => ({ location: this.problemPage(problem), keepNonce: false });
    const refusal = await this.refusal(client);
    if (refusal) return ended(refusal);
    if (identity.email === null) return ended('no-mail');
    let mail: string;
    try {
      mail = checkMail(identity.email);
    } catch {
      return ended('no-mail');
    }
    if (await this.mailUsed(db, mail)) return ended('mail-taken');
    const ticket = randomBytes(32).toString('base64url');
    const now = clock.now();
    await db.deleteFrom('oidc_registrations').where('expires_at', '<=', now).execute();
    await db
      .insertInto('oidc_registrations')
      .values({
        ticket_hash: tokenHash(ticket),
        provider: client.id,
        issuer: identity.issuer,
        subject: identity.subject,
        name: identity.name,
        mail,
        mail_verified: identity.emailVerified ? 1 : 0,
        browser_hash: browserHash,
        created_at: now,
        expires_at: now + TICKET_LIFETIME_MS,
      })
      .execute();
    return { location: `${publicUrl}/register/oidc?ticket=${ticket}`, keepNonce: true };
  }

  private async mailUsed(db: Kysely<Database> | Transaction<Database>, mail: string): Promise<boolean> {
    return (await db.selectFrom('users').select('id').where('mail_key', '=', mailKey(mail)).executeTakeFirst()) !== undefined;
  }

  /**
   * The ticket `ticket` in the browser that began (`browserNonce`), counted as a check of a secret: a wrong or expired
   * one, or one from another browser, is a 401 (10 per address in 15 minutes, then 429).
   */
  private async find(ticket: string, browserNonce: string | undefined, clientAddress: string) {
    const { db, clock, limiter } = this.deps;
    if (browserNonce === undefined) throw unauthorized('oidc.ticketUnusable');
    await limiter.take(OIDC_TICKET_FAILURES_PER_ADDRESS, clientAddress);
    const row = TICKET_FORMAT.test(ticket)
      ? await db
          .selectFrom('oidc_registrations')
          .selectAll()
          .where('ticket_hash', '=', tokenHash(ticket))
          .where('browser_hash', '=', tokenHash(browserNonce))
          .where('expires_at', '>', clock.now())
          .executeTakeFirst()
      : undefined;
    if (!row) throw unauthorized('oidc.ticketUnusable');
    await limiter.refund(OIDC_TICKET_FAILURES_PER_ADDRESS, clientAddress);
    const client = this.deps.clients.find((candidate) => candidate.id === row.provider);
    if (!client) throw notFound('oidc.unknownProvider');
    return { row, client };
  }

  /** What the page shows of the ticket it was opened with. */
  async details(ticket: string, browserNonce: string | undefined, clientAddress: string): Promise<TicketDetails> {
    const { row, client } = await this.find(ticket, browserNonce, clientAddress);
    return {
      provider: client.settings.name,
      mail: row.mail,
      mail_verified: row.mail_verified === 1,
      suggested_name: suggestedName(row.name, row.mail),
    };
  }

  /**
   * Creates the account of the ticket with the profile name `username` (and `password`, when the player chose one):
   * finished at once, the identity linked. A verified mail logs in now; any other gets its code mailed (the link
   * opens /mail/confirm), and the account logs in once confirmed. The ticket is used up only by an account made.
   */
  async register(
    ticket: string,
    input: { username: string; password?: string; invite?: string },
    browserNonce: string | undefined,
    clientAddress: string,
    language: Language,
  ): Promise<Registered> {
    const { db, clock, tokens, publicUrl, limiter } = this.deps;
    const more = this.more;
    const { row, client } = await this.find(ticket, browserNonce, clientAddress);
    if (more === null || !client.settings.register) throw notFound('oidc.registrationNotOffered');
    const username = checkNewUsername(input.username, more.profileRules.nameRule);
    const passwordHash =
      input.password === undefined || input.password === ''
        ? NO_PASSWORD
        : await hashPassword(checkPassword(input.password, [row.mail, username]));
    if (await this.mailUsed(db, row.mail)) throw conflict('oidc.mailTaken');
    await more.admission.check(input.invite, clientAddress);
    const verified = row.mail_verified === 1;
    const key = mailKey(row.mail);
    if (!verified)
      await limiter.takeAll([
        [RULES.mailsPerAddress, clientAddress],
        [RULES.mailsPerRecipient, `verify_mail:${key}`],
      ]);
    let session: { jwt: string; url: string } | null = null;
    try {
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        // Single use: the delete takes the ticket, so two submissions at the same moment make one account.
        const taken = await trx.deleteFrom('oidc_registrations').where('id', '=', row.id).executeTakeFirst();
        if (taken.numDeletedRows !== 1n) throw unauthorized('oidc.ticketUnusable');
        if (await this.mailUsed(trx, row.mail)) throw conflict('oidc.mailTaken');
        const holder = await trx
          .selectFrom('oidc_identities')
          .select('id')
          .where('issuer', '=', row.issuer)
          .where('subject', '=', row.subject)
          .executeTakeFirst();
        if (holder) throw conflict('oidc.identityTaken');
        const uuid = await newProfileUuid(trx, more.profileRules.uuid, username);
        const user = await trx
          .insertInto('users')
          .values({
            ...usernameColumns(username),
            mail: row.mail,
            mail_key: key,
            password: passwordHash,
            uuid,
            perms: 0,
            mail_verify: verified ? 1 : 0,
            mail_verification: 1,
            language,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await insertProfile(trx, { userId: user.id, name: username, uuid, now });
        const actor = { id: user.id, name: username };
        await more.admission.admit(trx, input.invite, actor, now);
        await trx
          .insertInto('oidc_identities')
          .values({ user_id: user.id, provider: client.id, issuer: row.issuer, subject: row.subject, name: row.name, created_at: now })
          .execute();
        await recordAudit(trx, now, {
          actor,
          action: 'auth.register',
          target: user.id,
          details: { provider: client.id, mail_verified: verified, password: passwordHash !== NO_PASSWORD },
        });
        if (verified) {
          session = await openWebSession(trx, tokens, clock, publicUrl, user);
          return;
        }
        const { code, token } = await more.codes.issue(trx, user.id, 'verify_mail', row.mail, now);
        await queueMail(trx, now, row.mail, verifyMailMessage(language, groupedCode(code), `${publicUrl}/mail/confirm?code=${token}`));
      });
    } catch (error) {
      // A race on the name (or the address) with another registration: the unique index keeps one.
      if (isUniqueViolation(error)) throw conflict('accounts.usernameTaken', { username, field: 'username' });
      throw error;
    }
    if (session !== null) {
      const { jwt, url } = session as { jwt: string; url: string };
      return { jwt, url, mailed: false };
    }
    this.deps.mailQueued();
    return { url: `${publicUrl}/mail/confirm`, mailed: true, mail: row.mail };
  }
}

/** A profile name to start from: the provider's name (or the mail's local part) in the game's letters, when it fits. */
function suggestedName(name: string, mail: string): string {
  for (const candidate of [name, mail.split('@')[0] ?? '']) {
    const cleaned = candidate.replace(/[^A-Za-z0-9_]/g, '').slice(0, 16);
    if (cleaned.length >= 3) return cleaned;
  }
  return '';
}
