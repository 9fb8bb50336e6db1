// The player's side of a launcher's login (contract section 18): a device code typed on /device, or an authorization
// request the library sent to the consent page. The player, logged in on the site, sees the client and its scopes,
// picks a profile when Select was asked, and approves (a new grant, audited) or refuses.
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { DeviceCodeModel, InteractionModel } from 'oidc-provider';
import { actorOf } from '../audit/audit.ts';
import type { CallerUser } from '../accounts/authenticate.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import { badRequest, forbidden, notFound } from '../http/envelope.ts';
import type { OAuthRequestRecord } from '../http/shapes/oauth.ts';
import type { RateLimiter, RateRule } from '../ratelimit/limiter.ts';
import { unsignedUuid } from '../yggdrasil/shapes.ts';
import { SCOPES, type OAuthGrants } from './grants.ts';
import { normalizedUserCode } from './user-codes.ts';

/** Which request: the user code of a device, or the uid of an authorization request's interaction. */
export type RequestRef = { user_code: string } | { uid: string };

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

export class Consent {
  constructor(
    private readonly provider: Provider,
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly grants: OAuthGrants,
    private readonly limiter: RateLimiter,
  ) {}

  async describe(user: CallerUser, ref: RequestRef): Promise<OAuthRequestRecord> {
    const pending = await this.pending(user, ref);
    const client = await this.db.selectFrom('oauth_clients').select('name').where('id', '=', pending.clientId).executeTakeFirst();
    const profiles = pending.scopes.includes(SCOPES.select) ? await this.profilesOf(user.id) : [];
    return {
      client: { id: pending.clientId, name: client?.name ?? pending.clientId },
      scopes: pending.scopes,
      profiles: profiles.map((profile) => ({ id: unsignedUuid(profile.uuid), name: profile.name })),
    };
  }

  /** Approves with the profile `profile` (its id, with or without dashes) when Select was asked. */
  async approve(user: CallerUser, ref: RequestRef, profile: string | undefined): Promise<{ redirect: string | null }> {
    const pending = await this.pending(user, ref);
    let profileId: number | null = null;
    if (pending.scopes.includes(SCOPES.select)) {
      const profiles = await this.profilesOf(user.id);
      const wanted = profile?.replace(/-/g, '').toLowerCase();
      const chosen = profiles.length === 1 && wanted === undefined ? profiles[0] : profiles.find((p) => unsignedUuid(p.uuid) === wanted);
      if (profiles.length === 0) throw forbidden('oauth.noProfile');
      if (!chosen) throw badRequest('oauth.profileRequired', { field: 'profile' });
      profileId = chosen.id;
    }
    const subject = await this.grants.subjectOf(this.db, user.id);
    const grant = new this.provider.Grant({ accountId: subject, clientId: pending.clientId });
    grant.addOIDCScope(pending.scopes.join(' '));
    const grantKey = await grant.save();
    await this.grants.record(
      this.db,
      { grantKey, userId: user.id, clientId: pending.clientId, scopes: pending.scopes, profileId, expiresAt: this.clock.now() + 600_000 },
      actorOf(user),
    );
    return { redirect: await pending.settle({ subject, grantKey }) };
  }

  async deny(user: CallerUser, ref: RequestRef): Promise<{ redirect: string | null }> {
    return { redirect: await (await this.pending(user, ref)).settle({ refused: true }) };
  }

  private async pending(user: CallerUser, ref: RequestRef): Promise<Pending> {
    if ('user_code' in ref) {
      await this.limiter.take(USER_CODE_RULE, String(user.id));
      const code = normalizedUserCode(ref.user_code);
      const device = code === undefined ? undefined : await this.provider.DeviceCode.findByUserCode(code, { ignoreExpiration: true });
      if (!device || device.isExpired || device.accountId || device.error) throw notFound('oauth.requestNotFound');
      return this.ofDevice(device);
    }
    const interaction = await this.provider.Interaction.find(ref.uid);
    if (!interaction || interaction.isExpired || interaction.result) throw notFound('oauth.requestNotFound');
    return this.ofInteraction(interaction);
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
            authTime: Math.floor(this.clock.now() / 1000),
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
