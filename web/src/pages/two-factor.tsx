// Two-factor login in the pages (contract section 12): the login's second step, asked for when the API answers
// `totp_required`, and the profile's part that turns it on (QR code and secret, a first code, recovery codes shown
// once) and off (password and a code).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, session } from '../api.ts';
import { Confirmation, CopyField, Field, messageOf, useAction } from '../components.tsx';
import { navigate } from '../router.tsx';

/** Whether a failed login asks for the second step. */
export const asksForCode = (error: unknown) => error instanceof ApiError && error.status === 401 && error.data.totp_required === true;

let nextId = 0;

type CodeKind = 'app' | 'recovery' | 'either';
const HINTS: Record<CodeKind, string> = {
  app: 'The 6-digit code your authenticator app shows now. A recovery code works too.',
  recovery: 'One of the recovery codes you kept, such as 7KQ2M-9PX4R; each works once.',
  either: 'The 6-digit code your authenticator app shows now, or one of your recovery codes.',
};

/** The code input: digits for the app's code (a phone shows its number pad), letters too where a recovery code fits. */
function CodeInput(props: { label: string; name: string; error: string | null; kind: CodeKind; autoFocus?: boolean }) {
  const [id] = useState(() => `two-factor-code-${(nextId += 1)}`);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (props.autoFocus) input.current?.focus();
  }, []);
  useEffect(() => {
    if (props.error) input.current?.focus();
  }, [props.error]);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        ref={input}
        id={id}
        name={props.name}
        required
        autocomplete="one-time-code"
        inputMode={props.kind === 'app' ? 'numeric' : 'text'}
        spellcheck={false}
        maxLength={32}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
      />
      <small id={`${id}-hint`}>{HINTS[props.kind]}</small>
      {props.error && (
        <small id={`${id}-error`} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

/** The login's second step: the password was right; the code of the app (or a recovery code) finishes it. */
export function LoginCodeStep(props: { username: string; password: string; onBack: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  return (
    <form
      class="form"
      aria-labelledby="two-factor-step-title"
      onSubmit={(event) => {
        event.preventDefault();
        const totp = String(new FormData(event.currentTarget).get('totp') ?? '');
        setError(null);
        void action.run(async () => {
          try {
            const reply = await api.post<{ jwt: string }>('/api/auth/login', { username: props.username, password: props.password, totp });
            session.save(reply.data.jwt);
            navigate(reply.url ?? '/home');
          } catch (failure) {
            if (!(failure instanceof ApiError) || failure.status !== 401) throw failure;
            setError('This code is wrong or was already used: type the code your app shows now, or an unused recovery code.');
          }
        });
      }}
    >
      <h2 id="two-factor-step-title">Two-factor login</h2>
      <p class="muted">Your password is right. This account also asks for a code from your authenticator app.</p>
      <CodeInput
        label={recovery ? 'Recovery code' : 'Code from your app'}
        name="totp"
        error={error}
        kind={recovery ? 'recovery' : 'app'}
        autoFocus
      />
      <button type="submit" disabled={action.busy}>
        Log in
      </button>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => setRecovery(!recovery)}>
          {recovery ? 'Use the code from my app' : 'Use a recovery code'}
        </button>
        <button type="button" class="secondary" onClick={props.onBack}>
          Back
        </button>
      </div>
      <div aria-live="polite">{action.outcome}</div>
    </form>
  );
}

interface Setup {
  secret: string;
  uri: string;
  qr: string;
}

/** The profile's part: turn two-factor login on or off. */
export function TwoFactorSection(props: { enabled: boolean; onChange: () => Promise<unknown> | void }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const action = useAction();

  const begin = () =>
    action.run(async () => {
      setRecoveryCodes(null);
      setSetup((await api.post<Setup>('/api/home/2fa')).data);
    });
  const confirm = (code: string) =>
    action.run(async () => {
      setCodeError(null);
      try {
        const reply = await api.post<{ recovery_codes: string[] }>('/api/home/2fa/confirm', { code });
        setSetup(null);
        setRecoveryCodes(reply.data.recovery_codes);
        await props.onChange();
      } catch (failure) {
        if (!(failure instanceof ApiError) || failure.status !== 400) throw failure;
        setCodeError('This code is wrong: type the 6-digit code your app shows now for this account.');
      }
    });

  return (
    <section class="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor login</h2>
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />}
      {props.enabled && !recoveryCodes && (
        <>
          <p>
            <strong>On.</strong> Logging in here, in the game and in GravitLauncher asks for a code from your authenticator app (in a
            launcher, type your password, a colon and the code: <code>password:123456</code>).
          </p>
          <TurnOff onDone={props.onChange} />
        </>
      )}
      {!props.enabled && !setup && (
        <>
          <p class="muted">
            Off. With it on, a stolen password is not enough: every login also asks for a code from an app on your phone (any authenticator
            app, such as Aegis, FreeOTP or Google Authenticator).
          </p>
          <button type="button" disabled={action.busy} onClick={() => void begin()}>
            Turn on two-factor login
          </button>
        </>
      )}
      {!props.enabled && setup && (
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault();
            void confirm(String(new FormData(event.currentTarget).get('code') ?? ''));
          }}
        >
          <p>Scan this code with your authenticator app, or type the secret below into it.</p>
          <img class="qr" src={setup.qr} width={256} height={256} alt="QR code of the two-factor secret, for an authenticator app" />
          <CopyField label="Secret (to type into the app)" value={setup.secret} />
          <CodeInput label="Code the app shows now" name="code" error={codeError} kind="app" />
          <button type="submit" disabled={action.busy}>
            Turn on
          </button>
          <button type="button" class="secondary" onClick={() => setSetup(null)}>
            Cancel
          </button>
        </form>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </section>
  );
}

/** Shown once, right after turning on: the player copies or writes them down. */
function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div class="recovery-codes">
      <h3 ref={heading} tabIndex={-1}>
        Two-factor login is on: keep your recovery codes
      </h3>
      <p>
        If you lose your phone, each of these codes logs you in once instead of a code from the app. They are shown only now: copy them
        somewhere safe.
      </p>
      <ul class="items" aria-label="Recovery codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyField label="All recovery codes" value={props.codes.join(' ')} />
      <button type="button" onClick={props.onDone}>
        I have kept them
      </button>
    </div>
  );
}

function TurnOff(props: { onDone: () => Promise<unknown> | void }) {
  const [asking, setAsking] = useState(false);
  const [values, setValues] = useState<{ password: string; code: string } | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const action = useAction();
  const turnOff = () =>
    action.run(async () => {
      setAsking(false);
      setCodeError(null);
      setPasswordError(null);
      try {
        await api.delete('/api/home/2fa', values);
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 401) {
          if (/^password/.test(failure.message)) setPasswordError(messageOf(failure));
          else setCodeError('This code is wrong or was already used: type the code your app shows now, or an unused recovery code.');
          return;
        }
        throw failure;
      }
      await props.onDone();
      return 'Two-factor login is off.';
    });
  return (
    <form
      class="form"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        setValues({ password: String(data.get('password') ?? ''), code: String(data.get('code') ?? '') });
        setAsking(true);
      }}
    >
      <Field label="Your password" name="password" type="password" required autocomplete="current-password" error={passwordError} />
      <CodeInput label="Code from your app, or a recovery code" name="code" error={codeError} kind="either" />
      <button type="submit" class="secondary" disabled={asking || action.busy}>
        Turn off two-factor login
      </button>
      {asking && (
        <Confirmation confirmLabel="Turn off two-factor login" danger onConfirm={() => void turnOff()} onCancel={() => setAsking(false)}>
          Turn off two-factor login? Your password alone will log in again, here, in the game and in launchers.
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </form>
  );
}

/** The admin's user editor: whether the player has two-factor login on, and turning it off for them (a lost phone). */
export function AdminTwoFactor(props: { userId: number; name: string; on: boolean; mayTurnOff: boolean; onChanged: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const turnOff = () =>
    action.run(async () => {
      setAsking(false);
      await api.delete(`/api/admin/user/${props.userId}/2fa`);
      await props.onChanged();
      return `Two-factor login is off for ${props.name}; they were told by mail.`;
    });
  return (
    <div role="group" aria-labelledby="user-two-factor-heading">
      <h3 id="user-two-factor-heading">Two-factor login</h3>
      <p class="muted">{props.on ? 'On: every login asks for a code from their app.' : 'Off.'}</p>
      {props.on && props.mayTurnOff && (
        <button type="button" class="secondary small" disabled={asking || action.busy} onClick={() => setAsking(true)}>
          Turn off two-factor login
        </button>
      )}
      {asking && (
        <Confirmation confirmLabel="Turn off two-factor login" danger onConfirm={() => void turnOff()} onCancel={() => setAsking(false)}>
          Turn off two-factor login for {props.name}? Their password alone will log them in again (for a lost phone without recovery codes).
          They get a mail saying so, and the audit log records it.
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </div>
  );
}
