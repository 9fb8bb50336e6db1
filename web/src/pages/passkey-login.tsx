// The login page's passkey (contract section 21): a button, and the browser's autofill offering this site's passkeys
// once the login field is focused. The WebAuthn code (passkey-ceremony.ts) is fetched only then, so that a visit of
// /login downloads none of it. Passkeys are bound to PUBLIC_URL's host: on another address the page says so instead.
import { useState } from 'preact/hooks';
import { api, ApiError, session } from '../api.ts';
import { messageOf, Notice, useGameApiRoot } from '../components.tsx';
import { t } from '../i18n.ts';
import { afterLogin, navigate } from '../router.tsx';

/** Whether this page is on PUBLIC_URL's origin (the game login's address is PUBLIC_URL's), where passkeys work. */
export const passkeysWorkHere = (apiRoot: string) => new URL(apiRoot).origin === location.origin;

/** Why no passkey is offered on this address, and a link to the one where they work. */
export function PasskeysElsewhere(props: { apiRoot: string }) {
  const origin = new URL(props.apiRoot).origin;
  return (
    <p class="muted" data-passkeys-elsewhere>
      {t('login.passkeyElsewhere', { origin })} <a href={`${origin}/login`}>{origin}</a>
    </p>
  );
}

const logIn = async (autofill: boolean) => {
  const { logInWithPasskey } = await import('./passkey-ceremony.ts');
  const reply = await logInWithPasskey(autofill, api.post);
  session.save(reply.data.jwt);
  navigate(afterLogin(reply.url));
};

let autofillStarted = false;
/** Lets the browser offer passkeys in the login field's suggestions; once per page, and only where passkeys work. */
export function offerPasskeysInAutofill(apiRoot: string | null) {
  if (autofillStarted || apiRoot === null || !passkeysWorkHere(apiRoot) || !window.PublicKeyCredential) return;
  autofillStarted = true;
  // Ends when the player picks a passkey there. Refused (a browser without autofill for passkeys) or replaced by the
  // button's request, it ends quietly and is not tried again on this page: each try asks the service for a challenge.
  logIn(true).catch(() => undefined);
}

export function PasskeyLoginButton() {
  const apiRoot = useGameApiRoot();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (apiRoot === null || !window.PublicKeyCredential) return null;
  if (!passkeysWorkHere(apiRoot)) return <PasskeysElsewhere apiRoot={apiRoot} />;
  const start = () => {
    setBusy(true);
    setFailure(null);
    logIn(false).catch((error: unknown) => {
      setBusy(false);
      // The browser's dialog closed without a passkey: said in our words, not the browser's.
      setFailure(error instanceof ApiError ? messageOf(error) : t('login.passkeyNotUsed'));
    });
  };
  return (
    <div class="passkey-login">
      <button type="button" class="secondary" disabled={busy} onClick={start}>
        {t('login.passkey')}
      </button>
      {failure && <Notice kind="error">{failure}</Notice>}
    </div>
  );
}
