// The player's side of a launcher's login (contract section 18): a device code typed on /device, or an authorization
// request the library sent to the consent page. The player, logged in on the site, sees the client and its scopes,
// picks a profile when Select was asked, and approves (a new grant, audited and mailed to the player) or refuses.
// An authorization request is answered only from the browser that began it (contract 15b): the library's interaction
// cookie names it, so a link to another's request (`/authorize?uid=`, sent to a victim) grants nothing. A device code
// cannot be bound so (RFC 8628 5.4): the page warns instead.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import Provider, { errors, type DeviceCodeModel, type InteractionModel } from 'oidc-provider';
import type { Caller } from '../accounts/authenticate.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, forbidden, notFound } from '../http/envelope.ts';
import type { OAuthRequestRecord } from '../http/shapes/oauth.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import { queueSecurityMail } from '../mail/outbox.ts';
import { profileRef, unsignedUuid } from '../yggdrasil/shapes.ts';
import { makesGameTokens, SCOPES } from '../shared/oauth-scopes.ts';
import type { OAuthGrants } from './grants.ts';
import { normalizedUserCode } from './user-codes.ts';

/**
 * Which request: the user code of a device, or the uid of an authorization request's interaction, with whether the
 * browser asking is the one that began it (its interaction cookie names that uid).
 */
export type RequestRef = { user_code: string } | { uid: string; begunHere: boolean };

/** A player tries user codes at most this often: 40 bits of code stay out of reach of guessing. */
export const USER_CODE_RULE: RateRule = {
  name: 'oauth-user-code-user',
  limit: 20,
  windowMs: 15 * 60_000,
  message: 'limits.userCodesPerAccount',
};

interface Pending {
  clientId: string;
  scopes: string[];
  /** Settles the request with the grant or the refusal; answers where the browser goes next (null: nowhere). */
  settle(outcome: { subject: string; grantKey: string } | { refused: true }): Promise<string | null>;
}

export interface ConsentDeps {
  provider: Provider;
  db: Kysely<Database>;
  clock: Clock;
  grants: OAuthGrants;
  limiter: RateLimiter;
  publicUrl: string;
  /** Wakes the mail worker after a transaction that queued mail has committed. */
  mailQueued: () => void;
}

export class Consent {
  private readonly provider: Provider;
  private readonly db: Kysely<Database>;

  constructor(private readonly deps: ConsentDeps) {
    this.provider = deps.provider;
    this.db = deps.db;
  }

  /**
   * The uid of the authorization request the browser of `request` began (the library's interaction cookie, which it
   * sends to the consent API only), or undefined when it began none that is still waiting.
   */
  async interactionOfBrowser(request: IncomingMessage, response: ServerResponse): Promise<string | undefined> {
    try {
      return (await this.provider.interactionDetails(request, response)).uid;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    }
  }

  async describe(caller: Caller, ref: RequestRef): Promise<OAuthRequestRecord> {
    const pending = await this.pending(caller, ref);
    const profiles = pending.scopes.includes(SCOPES.select) ? await this.profilesOf(caller.accountId) : [];
    return {
      client: await this.clientOf(pending.clientId),
      scopes: pending.scopes,
      profiles: profiles.map(profileRef),
    };
  }

  /** Approves with the profile `profile` (its id, with or without dashes) when Select was asked. */
  async approve(caller: Caller, ref: RequestRef, profile: string | undefined): Promise<{ redirect: string | null }> {
    const { grants, clock } = this.deps;
    const pending = await this.pending(caller, ref);
    let chosen: { id: number; name: string } | null = null;
    if (pending.scopes.includes(SCOPES.select)) {
      const profiles = await this.profilesOf(caller.accountId);
      const wanted = profile?.replace(/-/g, '').toLowerCase();
      const found = profiles.length === 1 && wanted === undefined ? profiles[0] : profiles.find((p) => unsignedUuid(p.uuid) === wanted);
      if (profiles.length === 0) throw forbidden('oauth.noProfile');
      if (!found) throw badRequest('oauth.profileRequired', { field: 'profile' });
      chosen = found;
    }
    const subject = await grants.subjectOf(this.db, caller.accountId);
    const grant = new this.provider.Grant({ accountId: subject, clientId: pending.clientId });
    grant.addOIDCScope(pending.scopes.join(' '));
    const grantKey = await grant.save();
    const client = await this.clientOf(pending.clientId);
    await this.db.transaction().execute(async (trx) => {
      const now = clock.now();
      const { scopes, clientId } = pending;
      await grants.record(caller, trx, {
        grantKey,
        userId: caller.accountId,
        clientId,
        scopes,
        profileId: chosen?.id ?? null,
        expiresAt: now + 600_000,
      });
      // A new way in to the account: the player hears of it, in case it was not them (a phished code, say).
      const event = {
        kind: 'launcherAllowed',
        client: client.shared ? null : client.name,
        profile: makesGameTokens(scopes) ? (chosen?.name ?? null) : null,
      } as const;
      await queueSecurityMail(trx, now, caller.user, event, this.deps.publicUrl);
    });
    this.deps.mailQueued();
    return { redirect: await pending.settle({ subject, grantKey }) };
  }

  async deny(caller: Caller, ref: RequestRef): Promise<{ redirect: string | null }> {
    return { redirect: await (await this.pending(caller, ref)).settle({ refused: true }) };
  }

  private async pending(caller: Caller, ref: RequestRef): Promise<Pending> {
    if ('user_code' in ref) {
      await this.deps.limiter.take(USER_CODE_RULE, String(caller.accountId));
      const code = normalizedUserCode(ref.user_code);
      const device = code === undefined ? undefined : await this.provider.DeviceCode.findByUserCode(code, { ignoreExpiration: true });
      if (!device || device.isExpired || device.accountId || device.error) throw notFound('oauth.requestNotFound');
      return this.ofDevice(device);
    }
    const interaction = await this.provider.Interaction.find(ref.uid);
    if (!interaction || interaction.isExpired || interaction.result) throw notFound('oauth.authorizationNotFound');
    // Another browser's request (a link someone sent): shown to nobody but the browser that began it.
    if (!ref.begunHere) throw badRequest('oauth.otherBrowser');
    return this.ofInteraction(interaction);
  }

  /** The client as the pages name it: the shared client by the pages' own words (`shared`), a registered one by its name. */
  private async clientOf(clientId: string): Promise<OAuthRequestRecord['client']> {
    const row = await this.db.selectFrom('oauth_clients').select(['name', 'builtin']).where('id', '=', clientId).executeTakeFirst();
    return { id: clientId, name: row?.name ?? clientId, shared: row?.builtin === 1 };
  }

  private ofDevice(device: DeviceCodeModel): Pending {
    return {
      clientId: device.clientId,
      scopes: scopesOf(device.params.scope),
      settle: async (outcome) => {
        if ('refused' in outcome) Object.assign(device, { error: 'access_denied', errorDescription: 'the player refused' });
        else {
          Object.assign(device, {
            accountId: outcome.subject,
            grantId: outcome.grantKey,
            scope: device.params.scope ?? '',
            authTime: Math.floor(this.deps.clock.now() / 1000),
          });
        }
        await device.save();
        return null;
      },
    };
  }

  private ofInteraction(interaction: InteractionModel): Pending {
    return {
      clientId: interaction.params.client_id,
      scopes: scopesOf(interaction.params.scope),
      settle: async (outcome) => {
        interaction.result =
          'refused' in outcome
            ? { error: 'access_denied', error_description: 'the player refused' }
            : { login: { accountId: outcome.subject }, consent: { grantId: outcome.grantKey } };
        await interaction.persist();
        return interaction.returnTo;
      },
    };
  }

  private profilesOf(userId: number) {
    return this.db.selectFrom('profiles').select(['id', 'uuid', 'name']).where('user_id', '=', userId).orderBy('id').execute();
  }
}

const scopesOf = (scope: string | undefined) => [...new Set((scope ?? '').split(' ').filter((s) => s !== ''))];
