// The console's user editor: a user's identities at OpenID Connect providers (contract section 26), apart from the
// log-in pages' oidc.tsx so that the console's question (editing.tsx) stays out of the login page's first chunk.
import { useState } from 'preact/hooks';
import { api, type UserDetail } from '../../api.ts';
import { useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { t } from '../../i18n.ts';
import { useOidcProviders } from '../oidc.tsx';

/**
 * The console's part: a user's linked identities, each with Unlink for admins above the user's level (the API asks the
 * same). Unlinking asks first; when the identity is the account's last way in (no password, no other provider, no
 * Discord, no passkey), the question says so, and only then is the API told it may go (docs/decisions.md).
 */
export function AdminIdentities(props: {
  user: { Id: number; Identities?: UserDetail['Identities']; HasPassword: boolean; Discord_integration: boolean; Passkeys?: number };
  name: string;
  mayUnlink: boolean;
  onChanged: () => Promise<void>;
}) {
  const providers = useOidcProviders();
  const [asking, setAsking] = useState<string | null>(null);
  const action = useAction();
  const identities = props.user.Identities ?? [];
  const nameOf = (id: string) => providers.find((provider) => provider.id === id)?.name ?? id;
  const lastWay = identities.length === 1 && !props.user.HasPassword && !props.user.Discord_integration && (props.user.Passkeys ?? 0) === 0;
  const unlink = (provider: string) =>
    action.run(async () => {
      setAsking(null);
      await api.delete(`/api/admin/user/${props.user.Id}/oidc/${provider}`, lastWay ? { last: true } : {});
      await props.onChanged();
      return t('oidc.adminUnlinked', { provider: nameOf(provider), name: props.name });
    });
  return (
    <div role="group" aria-labelledby="user-identities-heading">
      <h3 id="user-identities-heading">{t('oidc.identities')}</h3>
      {identities.length === 0 ? (
        <p class="muted">{t('oidc.adminNone')}</p>
      ) : (
        <ul>
          {identities.map((identity) => (
            <li key={identity.provider}>
              {t('oidc.adminLinked', { provider: nameOf(identity.provider), name: identity.name, hint: identity.subject_hint })}{' '}
              {props.mayUnlink && (
                <button
                  type="button"
                  class="secondary small"
                  disabled={asking !== null || action.busy}
                  onClick={() => setAsking(identity.provider)}
                >
                  {t('oidc.adminUnlink', { provider: nameOf(identity.provider) })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {asking !== null && (
        <Confirmation
          confirmLabel={t('oidc.adminUnlink', { provider: nameOf(asking) })}
          danger
          onConfirm={() => void unlink(asking)}
          onCancel={() => setAsking(null)}
        >
          {t(lastWay ? 'oidc.adminLastQuestion' : 'oidc.adminQuestion', { provider: nameOf(asking), name: props.name })}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </div>
  );
}
