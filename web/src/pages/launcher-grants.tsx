// The launchers a player let in through Yggdrasil Connect (contract section 18), on the profile: each grant with its
// scopes in words, the profile it plays as and its dates, revoked after a confirmation. The scopes' words are the
// consent pages' too.
import { useEffect, useState } from 'preact/hooks';
import type { OAuthGrantRecord } from '../../../src/http/shapes/oauth.ts';
import { api } from '../api.ts';
import { Notice, messageOf, useAction } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { dateTime, t } from '../i18n.ts';

/** The words of each scope the provider knows; another scope is shown as it is. */
const SCOPE_WORDS: Record<string, string> = {
  openid: 'connect.scope.openid',
  profile: 'connect.scope.profile',
  email: 'connect.scope.email',
  offline_access: 'connect.scope.offline',
  'Yggdrasil.PlayerProfiles.Select': 'connect.scope.select',
  'Yggdrasil.PlayerProfiles.Read': 'connect.scope.read',
  'Yggdrasil.Server.Join': 'connect.scope.join',
};

export function ScopeList(props: { scopes: string[]; label?: string }) {
  return (
    <ul aria-label={props.label ?? t('connect.scopes')}>
      {props.scopes.map((scope) => (
        <li key={scope}>{SCOPE_WORDS[scope] ? t(SCOPE_WORDS[scope]) : scope}</li>
      ))}
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
      <h2 id="launchers-title">{t('connect.grantsTitle')}</h2>
      <p class="muted">{t('connect.grantsText')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {grants && grants.length === 0 && <p>{t('connect.noGrants')}</p>}
      {grants && grants.length > 0 && (
        <ul class="items">
          {grants.map((grant) => (
            <li key={grant.id}>
              <div class="grow">
                <strong>{grant.client.name}</strong>
                {grant.profile && <small>{t('connect.playsAs', { name: grant.profile.name })}</small>}
                <small>
                  {t('connect.grantDates', {
                    created: dateTime(grant.created),
                    used: grant.last_used === null ? t('connect.neverUsed') : dateTime(grant.last_used),
                  })}
                </small>
                <ScopeList scopes={grant.scopes} label={t('connect.scopesOf', { client: grant.client.name })} />
              </div>
              <button
                type="button"
                class="secondary"
                aria-label={t('connect.revokeNamed', { client: grant.client.name })}
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
                  {t('connect.revokeQuestion', { client: grant.client.name })}
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
