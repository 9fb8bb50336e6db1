// Two-factor login in the pages (contract section 12): the login's second step, asked for when the API answers
// `totp_required`. The profile's and the admin console's parts are in two-factor-settings.tsx, which only those
// (lazily loaded) pages import: the login page's budget (docs/performance.md, Web pages).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, session } from '../api.ts';
import { useAction } from '../components.tsx';
import { t } from '../i18n.ts';
import { afterLogin, navigate } from '../router.tsx';

/** Whether a failed login asks for the second step. */
export const asksForCode = (error: unknown) => error instanceof ApiError && error.status === 401 && error.data.totp_required === true;

let nextId = 0;

/** `setup`: the first code, while turning two-factor login on (no recovery code exists yet: home.json's hint). */
export type CodeKind = 'app' | 'recovery' | 'either' | 'setup';
const HINTS: Record<CodeKind, string> = {
  app: 'twoFactor.hintApp',
  recovery: 'twoFactor.hintRecovery',
  either: 'twoFactor.hintEither',
  setup: 'twoFactor.hintSetup',
};

/** The code input: digits for the app's code (a phone shows its number pad), letters too where a recovery code fits. */
export function CodeInput(props: { label: string; name: string; error: string | null; kind: CodeKind; autoFocus?: boolean }) {
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
        inputMode={props.kind === 'app' || props.kind === 'setup' ? 'numeric' : 'text'}
        spellcheck={false}
        maxLength={32}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
      />
      <small id={`${id}-hint`}>{t(HINTS[props.kind])}</small>
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
            navigate(afterLogin(reply.url));
          } catch (failure) {
            if (!(failure instanceof ApiError) || failure.status !== 401) throw failure;
            // A right code used already: the API's words say to wait for the next one (issue 31).
            setError(failure.key === 'accounts.totpUsed' ? failure.message : t('twoFactor.wrongOrUsed'));
          }
        });
      }}
    >
      <h2 id="two-factor-step-title">{t('twoFactor.title')}</h2>
      <p class="muted">{t('twoFactor.stepText')}</p>
      <CodeInput
        label={recovery ? t('twoFactor.recoveryCode') : t('twoFactor.appCode')}
        name="totp"
        error={error}
        kind={recovery ? 'recovery' : 'app'}
        autoFocus
      />
      <button type="submit" disabled={action.busy}>
        {t('login.submit')}
      </button>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => setRecovery(!recovery)}>
          {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </button>
        <button type="button" class="secondary" onClick={props.onBack}>
          {t('twoFactor.back')}
        </button>
      </div>
      <div aria-live="polite">{action.outcome}</div>
    </form>
  );
}
