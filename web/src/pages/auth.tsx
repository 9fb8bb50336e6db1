// The account pages: every flow of interface.md 4.1, driven by the API only. Mailed links open
// /register/confirm?code= and /reset/confirm?code= with the code filled in.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, session } from '../api.ts';
import { Field, Form, Notice, Page, messageOf } from '../components.tsx';
import { leaveNote, takeNote } from '../flash.ts';
import { DiscordLoginButton, DiscordLoginNote } from './discord.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { useRegistrationGate } from './registration-gate.tsx';
import { asksForCode, LoginCodeStep } from './two-factor.tsx';

export function CarriedNote() {
  const [note] = useState(takeNote);
  return note ? <Notice kind="ok">{note}</Notice> : null;
}

export function LoginPage() {
  // Two-factor login: after a right password the API asks for the code (totp_required), a second step in the page.
  const [secondStep, setSecondStep] = useState<{ username: string; password: string } | null>(null);
  if (secondStep) {
    return (
      <Page title="Log in">
        <LoginCodeStep {...secondStep} onBack={() => setSecondStep(null)} />
      </Page>
    );
  }
  return (
    <Page title="Log in">
      <CarriedNote />
      <DiscordLoginNote />
      <Form
        submitLabel="Log in"
        submit={async ({ username, password }) => {
          try {
            const reply = await api.post<{ jwt: string }>('/api/auth/login', { username, password });
            session.save(reply.data.jwt);
            navigate(reply.url ?? '/home');
          } catch (failure) {
            if (!asksForCode(failure)) throw failure;
            setSecondStep({ username: username!, password: password! });
          }
        }}
      >
        <Field label="Username or mail" name="username" required autocomplete="username" />
        <Field label="Password" name="password" type="password" required autocomplete="current-password" />
      </Form>
      <DiscordLoginButton />
      <p class="links">
        <Link href="/register">Create an account</Link> · <Link href="/reset">Forgot your password?</Link>
      </p>
    </Page>
  );
}

export function RegisterPage() {
  const [mismatch, setMismatch] = useState(false);
  const again = useRef<HTMLDivElement>(null);
  // An invitation link opens /register?invite=CODE; closed or by invitation only, the page says so instead of the form.
  const invite = useLocation().query.get('invite') || undefined;
  const refusal = useRegistrationGate(invite);
  if (refusal) return <Page title="Create an account">{refusal}</Page>;
  return (
    <Page title="Create an account">
      <Form
        submitLabel="Register"
        submit={async ({ mail, password, password_again }) => {
          // A typo in a hidden password would lock the player out of the account they are creating.
          setMismatch(password !== password_again);
          if (password !== password_again) {
            again.current?.querySelector('input')?.focus();
            return;
          }
          const reply = await api.post('/api/auth/register', { mail, password, invite });
          leaveNote(`We sent a code to ${mail}. Open the link in the mail, or enter the code here.`);
          navigate(reply.url ?? '/register/confirm');
        }}
      >
        <Field label="Mail address" name="mail" type="email" required autocomplete="email" />
        <Field label="Password" name="password" type="password" required autocomplete="new-password" hint="At least 8 characters" />
        <div ref={again}>
          <Field
            label="Password (again)"
            name="password_again"
            type="password"
            required
            autocomplete="new-password"
            error={mismatch ? 'The two passwords differ: type the same password twice.' : null}
          />
        </div>
      </Form>
      <p class="links">
        Already registered? <Link href="/login">Log in</Link>
      </p>
    </Page>
  );
}

/** Step 2: the code from the mail, filled in from the link or typed. */
export function RegisterConfirmPage() {
  const { query } = useLocation();
  const confirm = async (code: string) => {
    const reply = await api.post('/api/auth/confirm', { code });
    const next = reply.url ?? '/register/finish';
    if (session.token()) {
      navigate(next);
    } else {
      leaveNote('Your mail address is confirmed. Log in to finish your registration.');
      navigate('/login');
    }
  };
  return (
    <Page title="Confirm your mail">
      <CarriedNote />
      <CodeForm code={query.get('code')} submitLabel="Confirm" onCode={confirm} />
      {!query.get('code') && <SendAgain />}
    </Page>
  );
}

/** Registering an unconfirmed mail again mails a new code (contract section 2); the password given here replaces the first. */
function SendAgain() {
  return (
    <section class="card" aria-labelledby="send-again">
      <h2 id="send-again">No mail?</h2>
      <p class="muted">
        Check the spam folder first. Otherwise we send a new code; the password you give here becomes the account's password.
      </p>
      <Form
        submitLabel="Send the mail again"
        submit={async ({ mail, password }) => {
          await api.post('/api/auth/register', { mail, password });
          return `We sent a new code to ${mail}.`;
        }}
      >
        <Field label="Mail address" name="mail" type="email" required autocomplete="email" />
        <Field label="Password" name="password" type="password" required autocomplete="new-password" />
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
        <Field label="Code from the mail" name="code" value={props.code ?? undefined} required autocomplete="one-time-code" />
      </Form>
    </>
  );
}

/**
 * Step 3: the username only; reached after login while it is pending. The password was chosen in step 1 and is
 * not asked again: a second password field would replace it unchecked (contract section 2).
 */
export function RegisterFinishPage() {
  useEffect(() => {
    if (!session.token()) {
      leaveNote('Log in to finish your registration.');
      navigate('/login', { replace: true });
    }
  }, []);
  return (
    <Page title="Finish your registration">
      <CarriedNote />
      <Form
        submitLabel="Finish"
        submit={async ({ username }) => {
          const reply = await api.post('/api/home/registerfinish', { username });
          navigate(reply.url ?? '/home');
        }}
      >
        <Field label="Username" name="username" required autocomplete="username" hint="3 to 16 letters, digits or _" />
      </Form>
    </Page>
  );
}

export function ResetPage() {
  return (
    <Page title="Reset your password">
      <Form
        submitLabel="Send a reset code"
        submit={async ({ mail }) => {
          const reply = await api.post('/api/auth/forgetpass', { mail });
          leaveNote(reply.msg || 'If an account has this address, a reset code is on its way.');
          navigate('/reset/confirm');
        }}
      >
        <Field label="Mail address" name="mail" type="email" required autocomplete="email" />
      </Form>
      <p class="links">
        <Link href="/login">Back to log in</Link>
      </p>
    </Page>
  );
}

/** The reset code is checked first (without using it up), then the new password is asked for. */
export function ResetConfirmPage() {
  const { query } = useLocation();
  const [code, setCode] = useState<string | null>(null);
  return (
    <Page title="Choose a new password">
      <CarriedNote />
      {code === null ? (
        <CodeForm
          code={query.get('code')}
          submitLabel="Continue"
          onCode={async (candidate) => {
            await api.post('/api/auth/forgetpass/validate', { code: candidate });
            setCode(candidate);
          }}
        />
      ) : (
        <Form
          submitLabel="Set the new password"
          submit={async ({ password }) => {
            const reply = await api.post('/api/auth/forgetpass/update', { code, password });
            session.clear();
            leaveNote('Your password is changed. Log in with the new one.');
            navigate(reply.url ?? '/login');
          }}
        >
          <Field label="New password" name="password" type="password" required autocomplete="new-password" hint="At least 8 characters" />
        </Form>
      )}
    </Page>
  );
}
