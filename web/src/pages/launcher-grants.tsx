// The launchers a player let in through Yggdrasil Connect (contract section 18), on the profile: each grant with its
// scopes in words, the profile it plays as and its dates, revoked after a confirmation. The scopes' words and the
// launchers' names are the consent pages' too.
import { useEffect, useState } from 'preact/hooks';
import type { OAuthClientRef, OAuthGrantRecord } from '../../../src/http/shapes/oauth.ts';
import { makesGameTokens, SCOPES } from '../../../src/shared/oauth-scopes.ts';
import { api } from '../api.ts';
import { Notice, messageOf, useAction } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { dateTime, t } from '../i18n.ts';

/** The words of each scope the provider knows (the provider refuses any other). */
const SCOPE_WORDS: Record<string, string> = {
  openid: 'connect.scope.openid',
  profile: 'connect.scope.profile',
  email: 'connect.scope.email',
  offline_access: 'connect.scope.offline',
  [SCOPES.select]: 'connect.scope.select',
  [SCOPES.read]: 'connect.scope.read',
  [SCOPES.join]: 'connect.scope.join',
};

/**
 * The launcher as the pages name it: the built-in client any launcher uses in the page's own words, a registered one
 * by its name. `aboutClient` is a sentence about it: the built-in client's own wording (`key` + "Shared"), else `key`
 * with the name.
 */
export const clientName = (client: OAuthClientRef) => (client.shared ? t('connect.sharedName') : client.name);
export const aboutClient = (key: string, client: OAuthClientRef) => (client.shared ? t(`${key}Shared`) : t(key, { client: client.name }));

/**
 * What a launcher may do, a line per scope; with Select and Join its token is a game login's, which also changes the
 * chosen profile's skin and cape: said in a line of its own, as it is what a player would least expect.
 */
export function ScopeList(props: { scopes: string[]; label?: string }) {
  return (
    <ul aria-label={props.label ?? t('connect.scopes')}>
      {props.scopes
        .filter((scope) => SCOPE_WORDS[scope])
        .map((scope) => (
          <li key={scope}>{t(SCOPE_WORDS[scope]!)}</li>
        ))}
      {makesGameTokens(props.scopes) && <li>{t('connect.scope.textures')}</li>}
    </ul>
  );
}

export function LauncherGrants() {
  const [grants, setGrants] = useState<OAuthGrantRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState<OAuthGrantRecord | null>(null);
  const action = useAction();
  const load = () =>
    api.get<OAuthGrantRecord[]>('/api/home/oauth/grants').then(
      (reply) => setGrants(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => void load(), []);
  const revoke = (grant: OAuthGrantRecord) =>
    action.run(async () => {
      setAsking(null);
      const reply = await api.delete(`/api/home/oauth/grants/${grant.id}`);
      await load();
      return reply.msg;
    });
  return (
    <section class="card" aria-labelledby="launchers-title">
      <h3 id="launchers-title">{t('connect.grantsTitle')}</h3>
      <p class="muted">{t('connect.grantsText')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {grants && grants.length === 0 && <p>{t('connect.noGrants')}</p>}
      {grants && grants.length > 0 && (
        <ul class="items">
          {grants.map((grant) => (
            <li key={grant.id}>
              <div class="grow">
                <strong>{clientName(grant.client)}</strong>
                {grant.profile && <small>{t('connect.playsAs', { name: grant.profile.name })}</small>}
                <small>
                  {t('connect.grantDates', {
                    created: dateTime(grant.created),
                    used: grant.last_used === null ? t('connect.neverUsed') : dateTime(grant.last_used),
                  })}
                </small>
                <ScopeList scopes={grant.scopes} label={aboutClient('connect.scopesOf', grant.client)} />
              </div>
              <button
                type="button"
                class="secondary"
                aria-label={aboutClient('connect.revokeNamed', grant.client)}
                disabled={asking !== null || action.busy}
                onClick={() => setAsking(grant)}
              >
                {t('connect.revoke')}
              </button>
              {asking === grant && (
                <Confirmation
                  confirmLabel={t('connect.revokeNow')}
                  danger
                  onConfirm={() => void revoke(grant)}
                  onCancel={() => setAsking(null)}
                >
                  {aboutClient('connect.revokeQuestion', grant.client)}
                </Confirmation>
              )}
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </section>
  );
}
