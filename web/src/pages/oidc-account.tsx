// The profile's part for OpenID Connect providers (contract section 26): each provider the service offers, with the
// identity linked there (name and the end of its subject) and unlinking it, or linking one (a trip to the provider and
// back). Both ask for the password, and the code when two-factor login is on, as the API does.
import { useState } from 'preact/hooks';
import { api, type UserDetail } from '../api.ts';
import { Field, Form } from '../components.tsx';
import { t } from '../i18n.ts';
import { useOidcProviders } from './oidc.tsx';

type Identity = UserDetail['Identities'][number];

/** The password (and code) that linking and unlinking ask for, as the API's body. */
const proofOf = ({ password, totp }: Record<string, string>) => (totp === undefined ? { password } : { password, totp: totp.trim() });

function ProviderRow(props: {
  id: string;
  name: string;
  identity: Identity | undefined;
  twoFactor: boolean;
  onChange: () => Promise<void>;
  onDone: (note: string) => void;
}) {
  const [asking, setAsking] = useState(false);
  const path = `/api/home/oidc/${encodeURIComponent(props.id)}`;
  const submit = async (fields: Record<string, string>) => {
    if (!props.identity) {
      const reply = await api.post(path, proofOf(fields));
      // The provider's own page: a real navigation, away from this app.
      window.location.assign(reply.url!);
      return;
    }
    await api.delete(path, proofOf(fields));
    setAsking(false);
    props.onDone(t('oidc.unlinked', { name: props.name }));
    await props.onChange();
  };
  const label = props.identity ? t('oidc.unlink', { name: props.name }) : t('oidc.link', { name: props.name });
  return (
    <li>
      <strong>{props.name}</strong>{' '}
      <span class="muted">
        {props.identity ? t('oidc.linkedAs', { name: props.identity.name, hint: props.identity.subject_hint }) : t('oidc.notLinkedYet')}
      </span>
      {asking ? (
        <div style={{ flexBasis: '100%' }}>
          <p>{props.twoFactor ? t('oidc.proofCode') : t('oidc.proof')}</p>
          <Form submitLabel={props.identity ? label : t('oidc.continueTo', { name: props.name })} submit={submit}>
            <Field label={t('twoFactor.yourPassword')} name="password" type="password" required autocomplete="current-password" />
            {props.twoFactor && <Field label={t('twoFactor.eitherCode')} name="totp" required autocomplete="one-time-code" />}
          </Form>
          <button type="button" class="secondary" onClick={() => setAsking(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" class={props.identity ? 'secondary small' : 'small'} onClick={() => setAsking(true)}>
          {label}
        </button>
      )}
    </li>
  );
}

/** The card: shown while the service offers a provider or an identity is linked. */
export function OidcIdentities(props: { profile: UserDetail; onChange: () => Promise<void> }) {
  const providers = useOidcProviders();
  const [note, setNote] = useState<string | null>(null);
  const identities = props.profile.Identities;
  // A linked identity whose provider is not offered now (its discovery down, or taken out of OIDC_PROVIDERS) still shows.
  const rows = [
    ...providers.map((provider) => ({ id: provider.id, name: provider.name })),
    ...identities
      .filter((identity) => !providers.some((provider) => provider.id === identity.provider))
      .map((identity) => ({ id: identity.provider, name: identity.provider })),
  ];
  if (rows.length === 0) return null;
  return (
    <section class="card" aria-labelledby="oidc-title">
      <h3 id="oidc-title">{t('oidc.identities')}</h3>
      <p class="muted">{t('oidc.identitiesText')}</p>
      <ul class="items">
        {rows.map((row) => (
          <ProviderRow
            key={row.id}
            {...row}
            identity={identities.find((identity) => identity.provider === row.id)}
            twoFactor={props.profile.TwoFactor}
            onChange={props.onChange}
            onDone={setNote}
          />
        ))}
      </ul>
      {note && <p role="status">{note}</p>}
    </section>
  );
}
