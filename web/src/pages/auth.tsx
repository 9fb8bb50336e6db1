// The account pages: every flow of interface.md 4.1, driven by the API only. Mailed links open /register/confirm?code=,
// /mail/confirm?code= and /reset/confirm?code= with the link's token filled in.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, session } from '../api.ts';
import { Field, Form, NewPasswordField, Notice, Page, PasswordOwner, messageOf, useGameApiRoot } from '../components.tsx';
import { leaveNote, takeNote } from '../flash.ts';
import { DiscordLoginButton, DiscordLoginNote } from './discord.tsx';
import { OidcLoginButtons, OidcLoginNote, OidcRegisterButtons, OidcRegisterNote } from './oidc.tsx';
import { offerPasskeysInAutofill, PasskeyLoginButton } from './passkey-login.tsx';
import { PremiumJoin } from './premium-account.tsx';
import { Rich, t, useT } from '../i18n.ts';
import { afterLogin, Link, navigate, useLocation } from '../router.tsx';
import { useRegistrationGate } from './registration-gate.tsx';
import { asksForCode, LoginCodeStep } from './two-factor.tsx';
import {
  confirmCode,
  isUnconfirmed,
  keepContinuation,
  needsPassword,
  pendingRegistration,
  SendAgainAfterLogin,
  SendAgainFromTab,
  useConfirmationElsewhere,
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
      <OidcLoginNote />
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
      <OidcLoginButtons />
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
  // An invitation link opens /register?invite=CODE; closed or by invitation only, the page says so instead of the form.
  const invite = useLocation().query.get('invite') || undefined;
  const refusal = useRegistrationGate(invite);
  if (refusal)
    return (
      <Page title={t('register.title')}>
        <OidcRegisterNote />
        {refusal}
      </Page>
    );
  return (
    <Page title={t('register.title')}>
      <OidcRegisterNote />
      <Form
        submitLabel={t('register.submit')}
        submit={async ({ mail, password }) => {
          const reply = await api.post('/api/auth/register', { mail, password, invite });
          keepContinuation(reply.data, mail!);
          leaveNote(t('register.sent', { mail }));
          navigate(reply.url ?? '/register/confirm');
        }}
      >
        <Field label={t('field.mail')} name="mail" type="email" required autocomplete="email" />
        {/* Asked once, with a switch that shows it (as a reset asks): a typo is seen rather than typed twice. */}
        <NewPasswordField label={t('field.password')} />
      </Form>
      <OidcRegisterButtons invite={invite} />
      <p class="links">
        <Rich text={t('register.already')} parts={{ login: (text) => <Link href="/login">{text}</Link> }} />
      </p>
    </Page>
  );
}

/**
 * Step 2: the code from the mail, filled in from the link or typed. In the browser that registered (its continuation)
 * a link confirms at once and logs in, a typed code needs nothing more, and the page notices a confirmation made
 * elsewhere. Anywhere else the page asks for the account's password before it confirms (contract section 15b), and a
 * typed code for the address it was sent to; so does the browser that registered when the service says the code
 * needs a password (the address was registered again, by someone else or in another browser).
 */
export function RegisterConfirmPage() {
  useT();
  const { query } = useLocation();
  const linkCode = query.get('code');
  const [kept, setKept] = useState(pendingRegistration.get);
  const [asksPassword, setAsksPassword] = useState(kept === null);
  useConfirmationElsewhere(kept);
  const confirm = async (fields: Record<string, string>) => {
    try {
      await confirmCode({ code: fields.code!.trim(), mail: fields.mail, password: fields.password });
    } catch (failure) {
      if (needsPassword(failure)) setAsksPassword(true);
      throw failure;
    }
  };
  return (
    <Page title={t('confirm.title')}>
      <CarriedNote />
      {kept && <p class="muted">{t('confirm.sameBrowser')}</p>}
      {asksPassword && <p class="muted">{t(kept ? 'confirm.passwordAgain' : 'confirm.otherBrowser')}</p>}
      <PasswordOwner.Provider value={{ mail: kept?.mail }}>
        <CodeForm code={linkCode} submitLabel={t('confirm.submit')} confirmsAtOnce={!asksPassword} asksMail={!kept} onCode={confirm}>
          {asksPassword && <NewPasswordField label={t('field.password')} />}
        </CodeForm>
      </PasswordOwner.Provider>
      {!linkCode && (kept ? <SendAgainFromTab kept={kept} onKept={setKept} /> : <RegisterAgain />)}
    </Page>
  );
}

/**
 * Another browser: no continuation to send the mail again with, so the way is to register the address again, which
 * mails a new code (keeping no password when the address was registered before: contract section 15b).
 */
function RegisterAgain() {
  return (
    <section class="card" aria-labelledby="send-again">
      <h2 id="send-again">{t('confirm.noMail')}</h2>
      <p class="muted">
        <Rich text={t('confirm.noMailText')} parts={{ register: (text) => <Link href="/register">{text}</Link> }} />
      </p>
    </section>
  );
}

/**
 * The code from a mail: a link's code (its token, which needs nothing else) is filled in and, when `confirmsAtOnce`,
 * sent at once; a typed one asks for the mail address it was sent to when `asksMail` (contract section 15b).
 * `children`: further fields (the password of a registration).
 */
function CodeForm(props: {
  code: string | null;
  submitLabel: string;
  confirmsAtOnce: boolean;
  asksMail: boolean;
  mail?: string;
  onCode: (fields: Record<string, string>) => Promise<void>;
  children?: ComponentChildren;
}) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.code && props.confirmsAtOnce) props.onCode({ code: props.code }).catch((failure) => setError(messageOf(failure)));
  }, [props.code]);
  return (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      <Form submitLabel={props.submitLabel} submit={(fields) => props.onCode({ ...fields, code: fields.code!.trim() })}>
        <Field label={t('confirm.code')} name="code" value={props.code ?? undefined} required autocomplete="one-time-code" />
        {props.asksMail && !props.code && (
          <Field
            label={t('field.mail')}
            name="mail"
            type="email"
            value={props.mail}
            required
            autocomplete="email"
            hint={t('confirm.mailHint')}
          />
        )}
        {props.children}
      </Form>
    </>
  );
}

/**
 * A mail address confirmed by the link in the mail sent to it (or its code typed with the address): a changed one, or
 * the address of an account registered through a log-in provider that did not confirm it. No password asked.
 */
export function MailConfirmPage() {
  useT();
  const { query } = useLocation();
  const [confirmed, setConfirmed] = useState(false);
  return (
    <Page title={t('mailConfirm.title')}>
      {confirmed ? (
        <>
          <Notice kind="ok">{t('mailConfirm.done')}</Notice>
          <p class="links">
            {session.token() ? (
              <Link href="/home">{t('mailConfirm.toProfile')}</Link>
            ) : (
              <Link href="/login">{t('mailConfirm.toLogin')}</Link>
            )}
          </p>
        </>
      ) : (
        <CodeForm
          code={query.get('code')}
          submitLabel={t('confirm.submit')}
          confirmsAtOnce
          asksMail
          onCode={async ({ code, mail }) => {
            await api.post('/api/auth/confirm', { code, mail: mail || undefined });
            setConfirmed(true);
          }}
        />
      )}
    </Page>
  );
}

/**
 * Step 3: the name in the game only; reached after login while it is pending. The password was chosen in step 1 and
 * is not asked again: a second password field would replace it unchecked (contract section 2).
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
      <PremiumJoin onDone={(next) => navigate(next ?? '/home')} />
    </Page>
  );
}

/** sessionStorage: the address a reset was asked for in this tab, filled in beside a code typed by hand. */
const RESET_MAIL_KEY = 'skinservice.reset-mail';

/**
 * Mails a reset code to `mail` and goes on to the page that takes it: a forgotten password, or the first one of a
 * password-less account (the profile's "Set a password").
 */
export async function beginReset(mail: string) {
  const reply = await api.post('/api/auth/forgetpass', { mail });
  sessionStorage.setItem(RESET_MAIL_KEY, mail);
  leaveNote(reply.msg || t('reset.sent'));
  navigate('/reset/confirm');
}

export function ResetPage() {
  useT();
  return (
    <Page title={t('reset.title')}>
      <Form submitLabel={t('reset.submit')} submit={({ mail }) => beginReset(mail!)}>
        <Field label={t('field.mail')} name="mail" type="email" required autocomplete="email" />
      </Form>
      <p class="links">
        <Link href="/login">{t('reset.back')}</Link>
      </p>
    </Page>
  );
}

/** The reset code is checked first (without using it up), then the new password is asked for, once. */
export function ResetConfirmPage() {
  useT();
  const { query } = useLocation();
  const [checked, setChecked] = useState<{ code: string; mail?: string } | null>(null);
  const [askedFor] = useState(() => sessionStorage.getItem(RESET_MAIL_KEY) ?? undefined);
  return (
    <Page title={t('resetConfirm.title')}>
      <CarriedNote />
      {checked === null ? (
        <CodeForm
          code={query.get('code')}
          submitLabel={t('resetConfirm.continue')}
          confirmsAtOnce
          asksMail
          mail={askedFor}
          onCode={async ({ code, mail }) => {
            const candidate = { code: code!, mail: mail || undefined };
            await api.post('/api/auth/forgetpass/validate', candidate);
            setChecked(candidate);
          }}
        />
      ) : (
        <Form
          submitLabel={t('resetConfirm.submit')}
          submit={async ({ password }) => {
            const reply = await api.post('/api/auth/forgetpass/update', { ...checked, password });
            sessionStorage.removeItem(RESET_MAIL_KEY);
            session.clear();
            leaveNote(t('resetConfirm.changed'));
            navigate(reply.url ?? '/login');
          }}
        >
          <PasswordOwner.Provider value={{ mail: checked.mail }}>
            <NewPasswordField label={t('field.newPassword')} />
          </PasswordOwner.Provider>
        </Form>
      )}
    </Page>
  );
}
