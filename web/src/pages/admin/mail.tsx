// Owners only: one mail to every verified, unbanned user, sent after a confirmation in the page; the answer says how
// many players it goes to.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { Notice, useAction } from '../../components.tsx';
import { Confirmation } from '../../editing.tsx';
import { useT } from '../../i18n.ts';
import { plainMessage } from './names.tsx';

export function MailSection() {
  const t = useT();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const send = () => {
    setAsking(false);
    void action.run(async () => {
      try {
        const answer = await api.post<{ msg: string }>('/api/admin/mail', { subject, message });
        setSubject('');
        setMessage('');
        // POST /api/admin/mail answers {msg} without the envelope: the request helper reads it as the message.
        return answer.msg || t('admin:mail.onItsWay');
      } catch (error) {
        throw new Error(plainMessage(error));
      }
    });
  };
  return (
    <section class="card" aria-labelledby="mail-heading">
      <h2 id="mail-heading">{t('admin:mail.heading')}</h2>
      <p class="muted">{t('admin:mail.intro')}</p>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
      >
        <div class="field">
          <label for="mail-subject">{t('admin:mail.subject')}</label>
          <input id="mail-subject" required maxLength={1000} value={subject} onInput={(event) => setSubject(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="mail-message">{t('admin:mail.message')}</label>
          <textarea id="mail-message" rows={8} required value={message} onInput={(event) => setMessage(event.currentTarget.value)} />
        </div>
        <button type="submit" disabled={action.busy}>
          {t('admin:mail.send')}
        </button>
      </form>
      {asking && (
        <Confirmation confirmLabel={t('admin:mail.sendNow')} onConfirm={send} onCancel={() => setAsking(false)}>
          {t('admin:mail.question', { subject })}
        </Confirmation>
      )}
      {action.outcome}
      {action.error === null && action.busy && <Notice kind="ok">{t('admin:mail.sending')}</Notice>}
    </section>
  );
}
