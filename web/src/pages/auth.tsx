// The account pages: every flow of interface.md 4.1, driven by the API only. Mailed links open
// /register/confirm?code= and /reset/confirm?code= with the code filled in.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, session } from '../api.ts';
import { Field, Form, Notice, Page, messageOf, useGameApiRoot } from '../components.tsx';
import { leaveNote, takeNote } from '../flash.ts';
import { DiscordLoginButton, DiscordLoginNote } from './discord.tsx';
import { offerPasskeysInAutofill, PasskeyLoginButton } from './passkey-login.tsx';
import { Rich, t, useT } from '../i18n.ts';
import { afterLogin, Link, navigate, useLocation } from '../router.tsx';
import { useRegistrationGate } from './registration-gate.tsx';
import { asksForCode, LoginCodeStep } from './two-factor.tsx';
import {
  confirmCode,
  isUnconfirmed,
  keepContinuation,
  registrationTab,
  SendAgainAfterLogin,
  SendAgainFromTab,
} from './registration-flow.tsx';

export function CarriedNote() {
  const [note] = useState(takeNote);
  return note ? <Notice kind="ok">{note}</Notice> : null;
}

export function LoginPage() {
  useT();
  // Two-factor login: after a right password the API asks for the code (totp_required), a second step in the page.
  const [secondStep, setSecondStep] = useState<{ username: string; password: string } | null>(null);
  // A refusal because the mail is not confirmed offers to send the mail again, with the login just tried.
  const [unconfirmed, setUnconfirmed] = useState<{ username: string; password: string } | null>(null);
  const apiRoot = useGameApiRoot();
  if (secondStep) {
    return (
      <Page title={t('login.title')}>
        <LoginCodeStep {...secondStep} onBack={() => setSecondStep(null)} />
      </Page>
    );
  }
  return (
    <Page title={t('login.title')}>
      <CarriedNote />
      <DiscordLoginNote />
      {/* The first focus in the form lets the browser's suggestions offer passkeys as well. */}
      <div onFocusIn={() => offerPasskeysInAutofill(apiRoot)}>
        <Form
          submitLabel={t('login.submit')}
          submit={async ({ username, password }) => {
            setUnconfirmed(null);
            try {
              const reply = await api.post<{ jwt: string }>('/api/auth/login', { username, password });
              session.save(reply.data.jwt);
              navigate(afterLogin(reply.url));
            } catch (failure) {
              if (isUnconfirmed(failure)) setUnconfirmed({ username: username!, password: password! });
              if (!asksForCode(failure)) throw failure;
              setSecondStep({ username: username!, password: password! });
            }
          }}
        >
          <Field label={t('login.username')} name="username" required autocomplete="username webauthn" />
          <Field label={t('field.password')} name="password" type="password" required autocomplete="current-password" />
        </Form>
      </div>
      {unconfirmed && <SendAgainAfterLogin {...unconfirmed} />}
      <PasskeyLoginButton />
      <DiscordLoginButton />
      <p class="links">
        <Rich
          text={t('login.links')}
          parts={{ register: (text) => <Link href="/register">{text}</Link>, reset: (text) => <Link href="/reset">{text}</Link> }}
        />
      </p>
    </Page>
  );
}

export function RegisterPage() {
  useT();
  const [mismatch, setMismatch] = useState(false);
  const again = useRef<HTMLDivElement>(null);
  // An invitation link opens /register?invite=CODE; closed or by invitation only, the page says so instead of the form.
  const invite = useLocation().query.get('invite') || undefined;
  const refusal = useRegistrationGate(invite);
  if (refusal) return <Page title={t('register.title')}>{refusal}</Page>;
  return (
    <Page title={t('register.title')}>
      <Form
        submitLabel={t('register.submit')}
        submit={async ({ mail, password, password_again }) => {
          // A typo in a hidden password would lock the player out of the account they are creating.
          setMismatch(password !== password_again);
          if (password !== password_again) {
            again.current?.querySelector('input')?.focus();
            return;
          }
          const reply = await api.post('/api/auth/register', { mail, password, invite });
          keepContinuation(reply.data, mail!);
          leaveNote(t('register.sent', { mail }));
          navigate(reply.url ?? '/register/confirm');
        }}
      >
        <Field label={t('field.mail')} name="mail" type="email" required autocomplete="email" />
        <Field
          label={t('field.password')}
          name="password"
          type="password"
          required
          autocomplete="new-password"
          hint={t('field.passwordHint', { count: 8 })}
        />
        <div ref={again}>
          <Field
            label={t('register.passwordAgain')}
            name="password_again"
            type="password"
            required
            autocomplete="new-password"
            error={mismatch ? t('register.mismatch') : null}
          />
        </div>
      </Form>
      <p class="links">
        <Rich text={t('register.already')} parts={{ login: (text) => <Link href="/login">{text}</Link> }} />
      </p>
    </Page>
  );
}

/** Step 2: the code from the mail, filled in from the link or typed. */
export function RegisterConfirmPage() {
  useT();
  const { query } = useLocation();
  // The tab that registered confirms and is logged in at once, and has the mail sent again with one button.
  const [kept] = useState(registrationTab.get);
  return (
    <Page title={t('confirm.title')}>
      <CarriedNote />
      {kept && <p class="muted">{t('confirm.sameTab')}</p>}
      <CodeForm code={query.get('code')} submitLabel={t('confirm.submit')} onCode={confirmCode} />
      {!query.get('code') && (kept ? <SendAgainFromTab kept={kept} /> : <SendAgain />)}
    </Page>
  );
}

/**
 * Another tab or browser: registering an unconfirmed mail again mails a new code carrying the password given here
 * (contract section 15).
 */
function SendAgain() {
  return (
    <section class="card" aria-labelledby="send-again">
      <h2 id="send-again">{t('confirm.noMail')}</h2>
      <p class="muted">{t('confirm.noMailText')}</p>
      <Form
        submitLabel={t('confirm.sendAgain')}
        submit={async ({ mail, password }) => {
          const reply = await api.post('/api/auth/register', { mail, password });
          keepContinuation(reply.data, mail!);
          return t('confirm.sentAgain', { mail });
        }}
      >
        <Field label={t('field.mail')} name="mail" type="email" required autocomplete="email" />
        <Field label={t('field.password')} name="password" type="password" required autocomplete="new-password" />
      </Form>
    </section>
  );
}

/** Submits a code given in the link at once; otherwise asks for it. */
function CodeForm(props: { code: string | null; submitLabel: string; onCode: (code: string) => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.code) props.onCode(props.code).catch((failure) => setError(messageOf(failure)));
  }, [props.code]);
  return (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      <Form submitLabel={props.submitLabel} submit={({ code }) => props.onCode(code!.trim())}>
        <Field label={t('confirm.code')} name="code" value={props.code ?? undefined} required autocomplete="one-time-code" />
      </Form>
    </>
  );
}

/**
 * Step 3: the username only; reached after login while it is pending. The password was chosen in step 1 and is
 * not asked again: a second password field would replace it unchecked (contract section 2).
 */
export function RegisterFinishPage() {
  useT();
  useEffect(() => {
    if (!session.token()) {
      leaveNote(t('finish.logInFirst'));
      navigate('/login', { replace: true });
    }
  }, []);
  return (
    <Page title={t('finish.title')}>
      <CarriedNote />
      <Form
        submitLabel={t('finish.submit')}
        submit={async ({ username }) => {
          const reply = await api.post('/api/home/registerfinish', { username });
          navigate(reply.url ?? '/home');
        }}
      >
        <Field label={t('finish.username')} name="username" required autocomplete="username" hint={t('finish.usernameHint')} />
      </Form>
    </Page>
  );
}

export function ResetPage() {
  useT();
  return (
    <Page title={t('reset.title')}>
      <Form
        submitLabel={t('reset.submit')}
        submit={async ({ mail }) => {
          const reply = await api.post('/api/auth/forgetpass', { mail });
          leaveNote(reply.msg || t('reset.sent'));
          navigate('/reset/confirm');
        }}
      >
        <Field label={t('field.mail')} name="mail" type="email" required autocomplete="email" />
      </Form>
      <p class="links">
        <Link href="/login">{t('reset.back')}</Link>
      </p>
    </Page>
  );
}

/** The reset code is checked first (without using it up), then the new password is asked for. */
export function ResetConfirmPage() {
  useT();
  const { query } = useLocation();
  const [code, setCode] = useState<string | null>(null);
  return (
    <Page title={t('resetConfirm.title')}>
      <CarriedNote />
      {code === null ? (
        <CodeForm
          code={query.get('code')}
          submitLabel={t('resetConfirm.continue')}
          onCode={async (candidate) => {
            await api.post('/api/auth/forgetpass/validate', { code: candidate });
            setCode(candidate);
          }}
        />
      ) : (
        <Form
          submitLabel={t('resetConfirm.submit')}
          submit={async ({ password }) => {
            const reply = await api.post('/api/auth/forgetpass/update', { code, password });
            session.clear();
            leaveNote(t('resetConfirm.changed'));
            navigate(reply.url ?? '/login');
          }}
        >
          <Field
            label={t('field.newPassword')}
            name="password"
            type="password"
            required
            autocomplete="new-password"
            hint={t('field.passwordHint', { count: 8 })}
          />
        </Form>
      )}
    </Page>
  );
}
