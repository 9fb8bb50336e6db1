// Owners only: one mail to every verified, unbanned user, sent after a confirmation in the page; the answer says how
// many players it goes to.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { Confirmation, Notice, useAction } from '../../components.tsx';
import { plainMessage } from './names.tsx';

export function MailSection() {
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
        return answer.msg || 'The mail is on its way.';
      } catch (error) {
        throw new Error(plainMessage(error));
      }
    });
  };
  return (
    <section class="card" aria-labelledby="mail-heading">
      <h2 id="mail-heading">Mail everyone</h2>
      <p class="muted">One mail to every player with a confirmed mail address who is not banned. It is sent in the background.</p>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          setAsking(true);
        }}
      >
        <div class="field">
          <label for="mail-subject">Subject</label>
          <input id="mail-subject" required maxLength={1000} value={subject} onInput={(event) => setSubject(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="mail-message">Message</label>
          <textarea id="mail-message" rows={8} required value={message} onInput={(event) => setMessage(event.currentTarget.value)} />
        </div>
        <button type="submit" disabled={action.busy}>
          Send to everyone
        </button>
      </form>
      {asking && (
        <Confirmation confirmLabel="Send the mail now" onConfirm={send} onCancel={() => setAsking(false)}>
          Send “{subject}” to every player with a confirmed mail address? It cannot be called back.
        </Confirmation>
      )}
      {action.outcome}
      {action.error === null && action.busy && <Notice kind="ok">Sending…</Notice>}
    </section>
  );
}
