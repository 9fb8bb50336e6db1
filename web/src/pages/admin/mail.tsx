// Owners only: one mail to every verified, unbanned user.
import { api } from '../../api.ts';
import { Field, Form } from '../../components.tsx';

export function MailSection() {
  return (
    <section class="card">
      <Form
        resetOnSuccess
        submitLabel="Send to everyone"
        submit={async ({ subject, message }) => {
          if (!confirm('Send this mail to every verified user?')) return;
          return (await api.post<{ msg: string }>('/api/admin/mail', { subject, message })).data?.msg ?? 'Queued';
        }}
      >
        <Field label="Subject" name="subject" required />
        <div class="field">
          <label for="mail-message">Message</label>
          <textarea id="mail-message" name="message" rows={8} required />
        </div>
      </Form>
    </section>
  );
}
