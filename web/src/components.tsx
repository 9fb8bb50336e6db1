// Shared building blocks: the page frame, labelled fields, and forms that show the API's own messages.
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type ErrorParams } from './api.ts';
import { PASSWORD_LENGTH } from '../../src/shared/account-rules.ts';
import { formatSize, LanguagePicker, t, useT } from './i18n.ts';
import { Link } from './router.tsx';

/** Until the service has answered, and if it cannot: SERVER_NAME's own default (in the page's language). */
const FALLBACK_SITE_NAME = '';
/** SERVER_NAME's default (contract section 9): English words, so the pages say them in their own language instead. */
const DEFAULT_SERVER_NAME = 'Skin service';
/** What the public game login root says of the site: its name, and where launchers find the game login. */
interface SiteFacts {
  name: string;
  /** The game login's API root (the header every answer carries, contract section 9), or null if none was named. */
  gameApiRoot: string | null;
}
let siteRequest: Promise<SiteFacts> | null = null;
let knownSite: SiteFacts | null = null;

/** Asked for once per page load and shared by every page. */
export function askSite(): Promise<SiteFacts> {
  siteRequest ??= fetch('/api/yggdrasil/')
    .then(async (response) => {
      const location = response.headers.get('x-authlib-injector-api-location');
      // Taken from the service, not from this page's address: games must use PUBLIC_URL (see home.tsx).
      const gameApiRoot = location ? new URL(location, window.location.href).href : null;
      const root = response.ok ? ((await response.json()) as { meta?: { serverName?: string } }) : null;
      const announced = root?.meta?.serverName;
      return { name: announced && announced !== DEFAULT_SERVER_NAME ? announced : FALLBACK_SITE_NAME, gameApiRoot };
    })
    .catch(() => ({ name: FALLBACK_SITE_NAME, gameApiRoot: null }))
    .then((found) => (knownSite = found));
  return siteRequest;
}

/** One fact of askSite(), known at once after the first answer. */
function useSiteFact<T>(fact: (site: SiteFacts) => T, before: T): T {
  const [value, setValue] = useState(knownSite ? fact(knownSite) : before);
  useEffect(() => {
    let current = true;
    void askSite().then((found) => current && setValue(fact(found)));
    return () => void (current = false);
  }, []);
  return value;
}

/** The site's name (SERVER_NAME), as the public game login root announces it (`meta.serverName`). */
export function useSiteName(): string {
  return useSiteFact((site) => site.name, FALLBACK_SITE_NAME) || t('site.fallbackName');
}

/** The game login's address for launchers; null until known, or if the service names none. */
export function useGameApiRoot(): string | null {
  return useSiteFact((site) => site.gameApiRoot, null);
}

/** Every page: the header with the site's name (and `nav`, the logged-in links), then the page's title and body. */
export function Page(props: { title: string; children: ComponentChildren; wide?: boolean; nav?: ComponentChildren }) {
  useT();
  const siteName = useSiteName();
  document.title = props.title === siteName ? siteName : t('site.title', { page: props.title, site: siteName });
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          {siteName}
        </Link>
        <div class="top-end">
          <nav aria-label={t('nav.label')}>
            <Link href="/library">{t('nav.library')}</Link>
            {props.nav}
          </nav>
          <LanguagePicker />
          <ThemeSwitch />
        </div>
      </header>
      <main class={props.wide ? 'page wide' : 'page'}>
        {/* The router moves the focus here on every page change (tabindex -1: focusable by script, not by Tab). */}
        <h1 tabIndex={-1}>{props.title}</h1>
        {props.children}
      </main>
    </>
  );
}

/** The switch's choice, read before the first paint by web/theme.js: keep the key and values in step with it. */
const THEME_KEY = 'skinservice.theme';
type Theme = 'system' | 'light' | 'dark';

function storedTheme(): Theme {
  try {
    const theme = localStorage.getItem(THEME_KEY);
    return theme === 'light' || theme === 'dark' ? theme : 'system';
  } catch {
    return 'system';
  }
}

/** Light, dark, or the system's choice (prefers-color-scheme, the default); remembered in this browser. */
function ThemeSwitch() {
  const [theme, setTheme] = useState(storedTheme);
  const choose = (chosen: Theme) => {
    setTheme(chosen);
    try {
      if (chosen === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, chosen);
    } catch {
      // Storage refused (a private window's settings): the choice lasts until the page is left.
    }
    if (chosen === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = chosen;
  };
  return (
    <div class="theme-switch">
      <label for="theme-switch">{t('theme.label')}</label>
      <select id="theme-switch" value={theme} onChange={(event) => choose(event.currentTarget.value as Theme)}>
        <option value="system">{t('theme.system')}</option>
        <option value="light">{t('theme.light')}</option>
        <option value="dark">{t('theme.dark')}</option>
      </select>
    </div>
  );
}

let nextFieldId = 0;
/** An id no other element of the page has, for a label's or a description's reference. */
export const uniqueId = (prefix: string) => `${prefix}-${(nextFieldId += 1)}`;

/** Errors a Form received from the API for one of its fields, by the field's name: each Field shows its own. */
const FieldErrors = createContext<Record<string, string>>({});

/**
 * The account's own mail address and player names, where the page knows them (the profile): a new password typed
 * under this provider is checked against them too, beside the form's own mail and username fields.
 */
export const PasswordOwner = createContext<{ mail?: string; names?: string[] }>({});

/** Why the service would refuse a password (POST /api/auth/password-check), in the page's words. */
type PasswordVerdict = { ok: true } | { ok: false; reason: 'tooShort' | 'tooLong' | 'common' | 'ownIdentifier' };

const ONE_CHARACTER_REPEATED = /^(.)\1*$/su;

const verdictWords = (verdict: PasswordVerdict): string =>
  verdict.ok
    ? t('apiWords.passwordFine')
    : verdict.reason === 'tooShort'
      ? t('apiWords.passwordShort', { count: PASSWORD_LENGTH.min })
      : verdict.reason === 'tooLong'
        ? t('apiWords.passwordLong', { count: PASSWORD_LENGTH.max })
        : verdict.reason === 'common'
          ? t('apiWords.passwordCommon')
          : t('apiWords.passwordOwn');

/**
 * What the service would say of a new password, found as the player types: the length, one character repeated and
 * the player's own mail or names at once in the page; the list of common passwords by asking the service after a
 * pause in typing (the list stays there: docs/decisions.md). null while there is nothing to say.
 */
function usePasswordVerdict(input: { current: HTMLInputElement | null }): PasswordVerdict | null {
  const owner = useContext(PasswordOwner);
  const [verdict, setVerdict] = useState<PasswordVerdict | null>(null);
  useEffect(() => {
    const field = input.current;
    const form = field?.form;
    if (!field) return;
    let asked = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const valueOf = (name: string) => {
      const other = form?.elements.namedItem(name);
      return other instanceof HTMLInputElement ? other.value.trim() : '';
    };
    const check = () => {
      clearTimeout(timer);
      asked += 1;
      const password = field.value;
      if (password === '') return setVerdict(null);
      const mail = valueOf('mail') || owner.mail || '';
      const names = [valueOf('username'), ...(owner.names ?? [])].filter(Boolean);
      const lowerCased = password.toLowerCase();
      if (password.length < PASSWORD_LENGTH.min) return setVerdict({ ok: false, reason: 'tooShort' });
      if (password.length > PASSWORD_LENGTH.max) return setVerdict({ ok: false, reason: 'tooLong' });
      if (ONE_CHARACTER_REPEATED.test(password)) return setVerdict({ ok: false, reason: 'common' });
      if ([mail, ...names].some((own) => own !== '' && own.toLowerCase() === lowerCased))
        return setVerdict({ ok: false, reason: 'ownIdentifier' });
      const question = asked;
      timer = setTimeout(() => {
        api.post<PasswordVerdict>('/api/auth/password-check', { password, mail: mail || undefined, names: names.slice(0, 32) }).then(
          (reply) => question === asked && setVerdict(reply.data),
          // Not answered (a limit, the network): say nothing; the service checks again when the form is sent.
          () => question === asked && setVerdict(null),
        );
      }, 250);
    };
    // Any field of the form: a mail typed after the password changes what the password may not be.
    const target = form ?? field;
    target.addEventListener('input', check);
    check();
    return () => {
      clearTimeout(timer);
      asked += 1;
      target.removeEventListener('input', check);
    };
  }, [owner.mail, (owner.names ?? []).join('\n')]);
  return verdict;
}

/** A labelled input; the label is tied to the input so screen readers and tests find it by its text. */
export function Field(props: {
  label: string;
  name: string;
  type?: string;
  value?: string;
  onInput?: (value: string) => void;
  required?: boolean;
  autocomplete?: string;
  minLength?: number;
  hint?: string;
  /** What is wrong with the value, shown under the input and read out with it. */
  error?: string | null;
  /** A password that a switch under it shows in clear, so that it is typed once and checked by eye. */
  reveal?: boolean;
}) {
  const [id] = useState(() => uniqueId('field'));
  const [shown, setShown] = useState(false);
  const errorId = `${id}-error`;
  const fromForm = useContext(FieldErrors)[props.name];
  const error = props.error || fromForm || null;
  const input = useRef<HTMLInputElement>(null);
  // A new password (not its repetition) says as it is typed whether the service would take it.
  const checksPassword = props.autocomplete === 'new-password' && props.name === 'password';
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        ref={input}
        id={id}
        name={props.name}
        type={props.reveal && shown ? 'text' : (props.type ?? 'text')}
        // Controlled when the caller follows the input, otherwise only a starting value the user may change.
        {...(props.onInput ? { value: props.value } : { defaultValue: props.value })}
        required={props.required}
        autocomplete={props.autocomplete}
        minLength={props.minLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [props.hint && `${id}-hint`, checksPassword && `${id}-verdict`, error && errorId].filter(Boolean).join(' ') || undefined
        }
        onInput={props.onInput ? (event) => props.onInput!((event.target as HTMLInputElement).value) : undefined}
      />
      {props.hint && <small id={`${id}-hint`}>{props.hint}</small>}
      {props.reveal && (
        <label class="check">
          <input type="checkbox" checked={shown} onChange={(event) => setShown(event.currentTarget.checked)} />
          {t('field.showPassword')}
        </label>
      )}
      {checksPassword && <PasswordVerdictLine id={`${id}-verdict`} input={input} />}
      {error && (
        <small id={errorId} class="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/**
 * A new password, asked once wherever one is chosen (registration, a reset, confirming a registration elsewhere):
 * the rules' hint, a switch that shows it, and what the service would say of it as it is typed.
 */
export function NewPasswordField(props: { label: string }) {
  return (
    <Field
      label={props.label}
      name="password"
      type="password"
      required
      autocomplete="new-password"
      hint={t('field.passwordHint', { count: PASSWORD_LENGTH.min })}
      reveal
    />
  );
}

/** The live verdict under a new password: why it would be refused, or that it will do. Read out politely. */
function PasswordVerdictLine(props: { id: string; input: { current: HTMLInputElement | null } }) {
  const verdict = usePasswordVerdict(props.input);
  return (
    <small
      id={props.id}
      class={verdict === null ? 'password-verdict' : `password-verdict ${verdict.ok ? 'fine' : 'refused'}`}
      aria-live="polite"
    >
      {verdict && verdictWords(verdict)}
    </small>
  );
}

/**
 * Writes `text` to the clipboard. navigator.clipboard exists only in secure contexts (HTTPS, localhost): a site
 * opened by a LAN address over HTTP copies the selected input instead.
 */
async function copyToClipboard(text: string, input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input.select();
    return document.execCommand('copy');
  }
}

/** A labelled read-only value with a copy button; the outcome is announced to screen readers. */
export function CopyField(props: { label: string; value: string }) {
  const [id] = useState(() => uniqueId('field'));
  const input = useRef<HTMLInputElement>(null);
  const [outcome, setOutcome] = useState('');
  const copy = async () => {
    // Emptied first, so that copying again announces again.
    setOutcome('');
    const copied = await copyToClipboard(props.value, input.current!);
    setOutcome(copied ? t('common.copied') : t('common.copyRefused'));
  };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <div class="copy">
        <input id={id} ref={input} readOnly value={props.value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" class="secondary" aria-label={t('common.copyLabel', { label: props.label })} onClick={() => void copy()}>
          {t('common.copy')}
        </button>
      </div>
      <small role="status" aria-live="polite">
        {outcome}
      </small>
    </div>
  );
}

export function Notice(props: { kind: 'error' | 'ok'; children: ComponentChildren }) {
  return (
    <p class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}

/**
 * The API's refusals that a player meets on these pages, in a player's words, by the API's message key (contract
 * section 1 keeps the API's own words precise for programs, naming fields as the API spells them; the pages say it
 * their way, in their language). Others are shown as the API words them, already in the page's language.
 */
const PLAYER_WORDS: Record<string, (params: ErrorParams) => string> = {
  'accounts.mailRule': () => t('apiWords.mail'),
  'accounts.resetMailInvalid': () => t('apiWords.mail'),
  'accounts.usernameRule': () => t('apiWords.username'),
  'accounts.passwordTooShort': () => t('apiWords.passwordShort', { count: PASSWORD_LENGTH.min }),
  'accounts.passwordTooLong': () => t('apiWords.passwordLong', { count: PASSWORD_LENGTH.max }),
  'accounts.passwordCommon': () => t('apiWords.passwordCommon'),
  'accounts.passwordIsOwnIdentifier': () => t('apiWords.passwordOwn'),
  'accounts.passwordWrong': (params) => t(params.field === 'current_password' ? 'apiWords.currentPasswordWrong' : 'apiWords.passwordWrong'),
  'twoFactor.passwordWrong': () => t('apiWords.passwordWrong'),
  'discord.passwordWrong': () => t('apiWords.passwordWrong'),
  'oidc.passwordWrong': () => t('apiWords.passwordWrong'),
  'accounts.currentPasswordRequired': () => t('apiWords.currentPasswordRequired'),
  'textures.notYourSkin': () => t('apiWords.skinGone'),
  'textures.capeNotOwned': () => t('apiWords.capeGone'),
  'textures.fileTooLarge': (params) =>
    typeof params.bytes === 'number' ? t('apiWords.fileTooLargeLimit', { limit: formatSize(params.bytes) }) : t('apiWords.fileTooLarge'),
  'http.bodyTooLarge': () => t('apiWords.fileTooLarge'),
  'accounts.wrongCredentials': () => t('apiWords.wrongLogin'),
  'accounts.wrongCode': () => t('apiWords.wrongCode'),
  'accounts.confirmPasswordNeeded': () => t('apiWords.confirmPasswordNeeded'),
  'accounts.usernameTaken': (params) => t('apiWords.nameTaken', { name: params.username }),
  'accounts.missingToken': () => t('apiWords.loginEnded'),
  'accounts.tokenExpired': () => t('apiWords.loginEnded'),
  'accounts.tokenInvalid': () => t('apiWords.loginEnded'),
  'accounts.tokenRevoked': () => t('apiWords.revoked'),
};

/** A refusal in a player's words when these pages have words for it, else as the API says it. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const words = error.key === null ? undefined : PLAYER_WORDS[error.key];
    return words ? words(error.params) : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The field of `form` an API refusal is about, when the form has it: the message is then shown on that field. */
function fieldOfError(error: unknown, form: HTMLFormElement): string | null {
  const field = error instanceof ApiError ? error.field : null;
  return field !== null && form.elements.namedItem(field) instanceof HTMLInputElement ? field : null;
}

/** Runs one action at a time and keeps its outcome: the API's message on failure, a note on success. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = async (action: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const note = await action();
      if (note) setDone(note);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const outcome = (
    <>
      {error && <Notice kind="error">{error}</Notice>}
      {done && <Notice kind="ok">{done}</Notice>}
    </>
  );
  return { busy, run, outcome, error };
}

/** A form that reads its named fields and hands them to `submit`; shows the outcome under the button. */
export function Form(props: {
  submitLabel: string;
  submit: (fields: Record<string, string>, form: FormData) => Promise<string | void>;
  children: ComponentChildren;
  resetOnSuccess?: boolean;
}) {
  const action = useAction();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  return (
    <form
      class="form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        const data = new FormData(form);
        const fields: Record<string, string> = {};
        data.forEach((value, key) => {
          if (typeof value === 'string') fields[key] = value;
        });
        setFieldErrors({});
        void action.run(async () => {
          try {
            const note = await props.submit(fields, data);
            if (props.resetOnSuccess) form.reset();
            return note;
          } catch (failure) {
            const field = fieldOfError(failure, form);
            if (!field) throw failure;
            // On its field, which takes the focus once the message is rendered and tied to it.
            setFieldErrors({ [field]: messageOf(failure) });
            setTimeout(() => (form.elements.namedItem(field) as HTMLInputElement).focus());
          }
        });
      }}
    >
      <FieldErrors.Provider value={fieldErrors}>{props.children}</FieldErrors.Provider>
      <button type="submit" disabled={action.busy}>
        {props.submitLabel}
      </button>
      {action.outcome}
    </form>
  );
}
