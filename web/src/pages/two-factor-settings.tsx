// Two-factor login on the profile (contract section 12): turning it on (QR code and secret, a first code, recovery
// codes shown once) and off (password and a code); and the admin console's part. The login's second step is in
// two-factor.tsx.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import { CopyField, Field, Form, messageOf, useAction } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { Rich, t } from '../i18n.ts';
import { CodeInput } from './two-factor.tsx';

interface Setup {
  secret: string;
  uri: string;
  qr: string;
}

/** The profile's part: turn two-factor login on or off. */
export function TwoFactorSection(props: { enabled: boolean; onChange: () => Promise<unknown> | void }) {
  const [askingPassword, setAskingPassword] = useState(false);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const action = useAction();

  // The secret is made only for the password: a session alone does not get one.
  const begin = async ({ password }: Record<string, string>) => {
    setSetup((await api.post<Setup>('/api/home/2fa', { password })).data);
    setAskingPassword(false);
  };
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
        setCodeError(t('twoFactor.wrongSetupCode'));
      }
    });

  return (
    <section class="card" aria-labelledby="two-factor-title">
      <h3 id="two-factor-title">{t('twoFactor.title')}</h3>
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />}
      {props.enabled && !recoveryCodes && (
        <>
          <p>
            <Rich text={t('twoFactor.onText')} parts={{ on: (text) => <strong>{text}</strong>, example: (text) => <code>{text}</code> }} />
          </p>
          <TurnOff onDone={props.onChange} />
        </>
      )}
      {!props.enabled && !setup && !askingPassword && (
        <>
          <p class="muted">{t('twoFactor.offText')}</p>
          <button
            type="button"
            onClick={() => {
              setRecoveryCodes(null);
              setAskingPassword(true);
            }}
          >
            {t('twoFactor.turnOnLong')}
          </button>
        </>
      )}
      {!props.enabled && !setup && askingPassword && (
        <>
          <p>{t('twoFactor.passwordFirst')}</p>
          <Form submitLabel={t('twoFactor.continue')} submit={begin}>
            <Field label={t('twoFactor.yourPassword')} name="password" type="password" required autocomplete="current-password" />
          </Form>
          <button type="button" class="secondary" onClick={() => setAskingPassword(false)}>
            {t('common.cancel')}
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
          <p>{t('twoFactor.scan')}</p>
          <img class="qr" src={setup.qr} width={256} height={256} alt={t('twoFactor.qrAlt')} />
          <CopyField label={t('twoFactor.secret')} value={setup.secret} />
          <CodeInput label={t('twoFactor.codeNow')} name="code" error={codeError} kind="setup" />
          <button type="submit" disabled={action.busy}>
            {t('twoFactor.turnOn')}
          </button>
          <button type="button" class="secondary" onClick={() => setSetup(null)}>
            {t('common.cancel')}
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
      <h4 ref={heading} tabIndex={-1}>
        {t('twoFactor.keepTitle')}
      </h4>
      <p>{t('twoFactor.keepText')}</p>
      <ul class="items" aria-label={t('twoFactor.recoveryCodes')}>
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <CopyField label={t('twoFactor.allCodes')} value={props.codes.join(' ')} />
      <button type="button" onClick={props.onDone}>
        {t('twoFactor.kept')}
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
          if (failure.field === 'password') setPasswordError(messageOf(failure));
          else setCodeError(t('twoFactor.wrongOrUsed'));
          return;
        }
        throw failure;
      }
      await props.onDone();
      return t('twoFactor.isOff');
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
      <Field
        label={t('twoFactor.yourPassword')}
        name="password"
        type="password"
        required
        autocomplete="current-password"
        error={passwordError}
      />
      <CodeInput label={t('twoFactor.eitherCode')} name="code" error={codeError} kind="either" />
      <button type="submit" class="secondary" disabled={asking || action.busy}>
        {t('twoFactor.turnOff')}
      </button>
      {asking && (
        <Confirmation confirmLabel={t('twoFactor.turnOff')} danger onConfirm={() => void turnOff()} onCancel={() => setAsking(false)}>
          {t('twoFactor.turnOffQuestion')}
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
      return t('adminParts.twoFactorOff', { name: props.name });
    });
  return (
    <div role="group" aria-labelledby="user-two-factor-heading">
      <h3 id="user-two-factor-heading">{t('twoFactor.title')}</h3>
      <p class="muted">{props.on ? t('adminParts.twoFactorOn') : t('adminParts.twoFactorOffShort')}</p>
      {props.on && props.mayTurnOff && (
        <button type="button" class="secondary small" disabled={asking || action.busy} onClick={() => setAsking(true)}>
          {t('twoFactor.turnOff')}
        </button>
      )}
      {asking && (
        <Confirmation confirmLabel={t('twoFactor.turnOff')} danger onConfirm={() => void turnOff()} onCancel={() => setAsking(false)}>
          {t('adminParts.twoFactorQuestion', { name: props.name })}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </div>
  );
}
