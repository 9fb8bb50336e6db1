// What the register page shows instead of its form when registration is closed, by invitation only without a
// usable invitation, or the invitation in the address cannot be used (GET /api/auth/registration).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PublicRegistration } from '../../../src/http/shapes/registration.ts';
import { api } from '../api.ts';
import { Rich, t } from '../i18n.ts';
import { Link } from '../router.tsx';

function Refusal(props: { title: string; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby="registration-refused">
      <h2 id="registration-refused">{props.title}</h2>
      {props.children}
      <p>
        <Rich text={t('gate.haveAccount')} parts={{ login: (text) => <Link href="/login">{text}</Link> }} />
      </p>
    </section>
  );
}

/**
 * null while the form may be shown (registration open, or a usable invitation); otherwise what to show instead.
 * If the service cannot be asked, the form shows and registering gives the service's own answer.
 */
export function useRegistrationGate(invite: string | undefined): ComponentChildren | null {
  const [state, setState] = useState<PublicRegistration | null | 'unknown'>(null);
  useEffect(() => {
    api.get<PublicRegistration>('/api/auth/registration', { invite }).then(
      (reply) => setState(reply.data),
      () => setState('unknown'),
    );
  }, [invite]);
  if (state === null) return <p>{t('common.loading')}</p>;
  if (state === 'unknown' || state.mode === 'open') return null;
  if (state.mode === 'closed')
    return (
      <Refusal title={t('gate.closedTitle')}>
        <p>{t('gate.closed')}</p>
      </Refusal>
    );
  if (!state.invite)
    return (
      <Refusal title={t('gate.inviteTitle')}>
        <p>{t('gate.invite')}</p>
      </Refusal>
    );
  if (!state.invite.usable)
    return (
      <Refusal title={t('gate.unusableTitle')}>
        <p>{state.invite.problem}</p>
      </Refusal>
    );
  return null;
}
