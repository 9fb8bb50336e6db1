// The apps that log players in through Yggdrasil Connect (contract section 18): moderators see them; admins register
// one (a confidential client's secret shown once, with a copy button) and delete one after a confirmation in the
// page (its grants end with it). Every launcher can use the shared client, which is not listed. The form starts
// afresh after each registration, and a public app with a website's (https) redirect is registered only after a
// confirmation that says what public means: a website is meant to be confidential.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { NewOAuthClientRecord, OAuthClientRecord } from '../../../../src/http/shapes/oauth.ts';
import { LEVELS } from '../../../../src/shared/levels.ts';
import { api } from '../../api.ts';
import { Notice, messageOf, useAction } from '../../components.tsx';
import { Confirmation, ShownOnce } from '../../editing.tsx';
import { useT } from '../../i18n.ts';

const PATH = '/api/admin/oauth/clients';

export function ClientsSection(props: { level: number }) {
  const t = useT();
  const [clients, setClients] = useState<OAuthClientRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [made, setMade] = useState<NewOAuthClientRecord | null>(null);
  const deleting = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const mayEdit = props.level >= LEVELS.admin;
  const load = () =>
    api.get<OAuthClientRecord[]>(PATH).then(
      (reply) => setClients(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => void load(), []);
  const remove = (client: OAuthClientRecord) =>
    deleting.run(async () => {
      await api.delete(`${PATH}/${client.id}`);
      await load();
      heading.current?.focus();
      return t('admin:clients.deleted', { name: client.name });
    });
  return (
    <section class="card" aria-labelledby="clients-heading">
      <h2 id="clients-heading" ref={heading} tabIndex={-1}>
        {t('admin:clients.heading')}
      </h2>
      <p class="muted">{t('admin:clients.intro')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {made?.secret && (
        <ShownOnce
          id={made.id}
          title={t('admin:clients.secretTitle', { name: made.name })}
          text={t('admin:clients.secretText')}
          values={[
            { label: t('admin:clients.clientId'), value: made.id },
            { label: t('admin:clients.secret'), value: made.secret },
          ]}
          doneLabel={t('admin:clients.done')}
          onDone={() => setMade(null)}
        />
      )}
      {clients && clients.length === 0 && <p>{t('admin:clients.none')}</p>}
      {clients && clients.length > 0 && (
        <ul class="items">
          {clients.map((client) => (
            <ClientItem key={client.id} client={client} mayDelete={mayEdit} busy={deleting.busy} onDelete={() => void remove(client)} />
          ))}
        </ul>
      )}
      <div aria-live="polite">{deleting.outcome}</div>
      {mayEdit && (
        <RegisterForm
          onMade={async (client) => {
            setMade(client);
            await load();
          }}
        />
      )}
    </section>
  );
}

function RegisterForm(props: { onMade: (client: NewOAuthClientRecord) => Promise<void> }) {
  const t = useT();
  const [name, setName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [device, setDevice] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const publicBox = useRef<HTMLInputElement>(null);
  const action = useAction();
  const redirectUris = () =>
    redirects
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  const send = () =>
    action.run(async () => {
      const reply = await api.post<NewOAuthClientRecord>(PATH, { name, redirect_uris: redirectUris(), public: isPublic, device });
      // Every field, the boxes too: the next app starts from nothing, not from this one's kind.
      setName('');
      setRedirects('');
      setPublic(false);
      setDevice(false);
      await props.onMade(reply.data);
      return t('admin:clients.registered', { name: reply.data.name });
    });
  const register = (event: Event) => {
    event.preventDefault();
    // A website's redirect on a public app: likely a website registered without its secret by mistake.
    if (isPublic && redirectUris().some((uri) => uri.toLowerCase().startsWith('https:'))) setConfirming(true);
    else void send();
  };
  return (
    <form class="form" onSubmit={register}>
      <h3>{t('admin:clients.register')}</h3>
      <div class="field">
        <label for="client-name">{t('admin:clients.name')}</label>
        <input id="client-name" required maxLength={64} value={name} onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="client-redirects">{t('admin:clients.redirects')}</label>
        <textarea
          id="client-redirects"
          rows={3}
          value={redirects}
          aria-describedby="client-redirects-hint"
          onInput={(event) => setRedirects(event.currentTarget.value)}
        />
        <small id="client-redirects-hint">{t('admin:clients.redirectsHint')}</small>
      </div>
      <label class="check">
        <input ref={publicBox} type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.currentTarget.checked)} />{' '}
        {t('admin:clients.public')}
      </label>
      <label class="check">
        <input type="checkbox" checked={device} onChange={(event) => setDevice(event.currentTarget.checked)} /> {t('admin:clients.device')}
      </label>
      <button type="submit" disabled={action.busy || confirming}>
        {t('admin:clients.registerButton')}
      </button>
      {confirming && (
        <Confirmation
          confirmLabel={t('admin:clients.registerPublic')}
          onConfirm={() => {
            setConfirming(false);
            void send();
          }}
          onCancel={() => {
            // Focus moves before the question goes, so it never falls back to the page between the two.
            publicBox.current?.focus();
            setConfirming(false);
          }}
        >
          {t('admin:clients.publicQuestion', { name: name.trim() })}
        </Confirmation>
      )}
      {action.outcome}
    </form>
  );
}

function ClientItem(props: { client: OAuthClientRecord; mayDelete: boolean; busy: boolean; onDelete: () => void }) {
  const t = useT();
  const { client } = props;
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <li aria-label={client.name}>
      <div class="grow">
        <strong>{client.name}</strong>
        <small>
          {client.public ? t('admin:clients.kindPublic') : t('admin:clients.kindConfidential')}
          {client.device && <> · {t('admin:clients.deviceAllowed')}</>}
        </small>
        <small>
          {t('admin:clients.clientId')}: <code>{client.id}</code>
        </small>
        {client.redirect_uris.map((uri) => (
          <small key={uri}>
            <code>{uri}</code>
          </small>
        ))}
      </div>
      {props.mayDelete && (
        <div class="actions">
          <button
            ref={button}
            type="button"
            class="danger"
            aria-label={t('admin:clients.deleteLabel', { name: client.name })}
            disabled={asking || props.busy}
            onClick={() => setAsking(true)}
          >
            {t('admin:clients.delete')}
          </button>
        </div>
      )}
      {asking && (
        <Confirmation
          confirmLabel={t('admin:clients.deleteLabel', { name: client.name })}
          danger
          onConfirm={() => {
            setAsking(false);
            props.onDelete();
          }}
          onCancel={() => {
            setAsking(false);
            setTimeout(() => button.current?.focus());
          }}
        >
          {t('admin:clients.deleteQuestion', { name: client.name })}
        </Confirmation>
      )}
    </li>
  );
}
