// App passwords on the profile (contract section 18): make one for a launcher that speaks only the password login
// (shown once, with a copy button), list them with their last use, and revoke one after a confirmation in the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { AppPasswordRecord, NewAppPassword } from '../../../src/http/shapes/app-password.ts';
import { api } from '../api.ts';
import { Field, Form, Notice, messageOf, useAction } from '../components.tsx';
import { Confirmation, ShownOnce } from '../editing.tsx';
import { dateTime, t } from '../i18n.ts';

export function AppPasswordsSection() {
  const [listed, setListed] = useState<AppPasswordRecord[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [made, setMade] = useState<NewAppPassword | null>(null);
  const revoking = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const load = () =>
    api.get<AppPasswordRecord[]>('/api/home/app-passwords').then(
      (reply) => setListed(reply.data),
      (error) => setFailure(messageOf(error)),
    );
  useEffect(() => void load(), []);
  const make = async ({ name }: Record<string, string>) => {
    setMade((await api.post<NewAppPassword>('/api/home/app-passwords', { name })).data);
    await load();
  };
  const revoke = (record: AppPasswordRecord) =>
    revoking.run(async () => {
      await api.delete(`/api/home/app-passwords/${record.id}`);
      await load();
      // Its button is gone with it: the focus goes to the section.
      heading.current?.focus();
      return t('appPasswords.revoked', { name: record.name });
    });
  return (
    <section class="card" aria-labelledby="app-passwords-title">
      <h2 id="app-passwords-title" ref={heading} tabIndex={-1}>
        {t('appPasswords.title')}
      </h2>
      <p class="muted">{t('appPasswords.text')}</p>
      {failure && <Notice kind="error">{failure}</Notice>}
      {made && (
        <ShownOnce
          id={made.id}
          title={t('appPasswords.madeTitle', { name: made.name })}
          text={t('appPasswords.madeText')}
          values={[{ label: t('appPasswords.password'), value: made.password }]}
          doneLabel={t('appPasswords.done')}
          onDone={() => setMade(null)}
        />
      )}
      {listed && listed.length === 0 && <p>{t('appPasswords.none')}</p>}
      {listed && listed.length > 0 && (
        <ul class="items app-passwords">
          {listed.map((record) => (
            <AppPasswordItem key={record.id} record={record} busy={revoking.busy} onRevoke={() => void revoke(record)} />
          ))}
        </ul>
      )}
      <div aria-live="polite">{revoking.outcome}</div>
      <Form submitLabel={t('appPasswords.make')} submit={make} resetOnSuccess>
        <Field label={t('appPasswords.name')} name="name" required hint={t('appPasswords.nameHint')} />
      </Form>
    </section>
  );
}

function AppPasswordItem(props: { record: AppPasswordRecord; busy: boolean; onRevoke: () => void }) {
  const { record } = props;
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const cancel = () => {
    setAsking(false);
    setTimeout(() => button.current?.focus());
  };
  return (
    <li data-app-password={record.id} aria-label={record.name}>
      <div class="grow">
        <strong>{record.name}</strong>
        <small>
          {t('appPasswords.made', { when: dateTime(record.created) })} ·{' '}
          {record.last_used === null ? t('appPasswords.neverUsed') : t('appPasswords.lastUsed', { when: dateTime(record.last_used) })}
        </small>
      </div>
      <div class="actions">
        <button
          ref={button}
          type="button"
          class="danger"
          aria-label={t('appPasswords.revokeLabel', { name: record.name })}
          disabled={asking || props.busy}
          onClick={() => setAsking(true)}
        >
          {t('appPasswords.revoke')}
        </button>
      </div>
      {asking && (
        <Confirmation
          confirmLabel={t('appPasswords.revokeConfirm', { name: record.name })}
          danger
          onConfirm={() => {
            setAsking(false);
            props.onRevoke();
          }}
          onCancel={cancel}
        >
          {t('appPasswords.revokeQuestion', { name: record.name })}
        </Confirmation>
      )}
    </li>
  );
}
