// Passkeys on the profile (contract section 21): add one with the password (and the two-factor code), the browser's
// own dialog making it on this device, a phone or a security key; list them with their last use, rename one in place, and remove one with the password
// (the list is the named-credentials component, shared with the app passwords). On an address other than PUBLIC_URL's
// the browser could not use them: the section says where they work instead.
import { startRegistration } from '@simplewebauthn/browser';
import { useState } from 'preact/hooks';
import type { PasskeyRecord } from '../../../src/http/shapes/passkey.ts';
import { api } from '../api.ts';
import { Form, useAction, useGameApiRoot } from '../components.tsx';
import { Confirmation } from '../editing.tsx';
import { t } from '../i18n.ts';
import { NamedCredentialsSection, NewCredentialFields, proofOf, type NamedCredentialKind } from './named-credentials.tsx';
import { PasskeysElsewhere, passkeysWorkHere } from './passkey-login.tsx';

const PASSKEYS: NamedCredentialKind<PasskeyRecord> = {
  path: 'passkeys',
  dataAttribute: 'data-passkey',
  words: 'passkeys',
  made: 'added',
  remove: { verb: 'remove', done: 'removed' },
  renameAs: 'passkey',
  askPassword: true,
  details: (record) => record.synced && <> · {t('passkeys.synced')}</>,
};

/** `twoFactor`: the account has two-factor login on, so adding a passkey asks for the code as well as the password. */
export function PasskeysSection(props: { twoFactor: boolean }) {
  const apiRoot = useGameApiRoot();
  const add = async (values: Record<string, string>) => {
    const options = (await api.post<Parameters<typeof startRegistration>[0]['optionsJSON']>('/api/home/passkeys/options', proofOf(values)))
      .data;
    let response;
    try {
      response = await startRegistration({ optionsJSON: options });
    } catch {
      // Cancelled in the browser's dialog, or no authenticator there: nothing was made.
      throw new Error(t('passkeys.notMade'));
    }
    await api.post('/api/home/passkeys', { response, name: values.name });
  };
  return (
    <NamedCredentialsSection
      kind={PASSKEYS}
      form={(reload) =>
        apiRoot !== null && !passkeysWorkHere(apiRoot) ? (
          <PasskeysElsewhere apiRoot={apiRoot} />
        ) : (
          <Form
            submitLabel={t('passkeys.add')}
            submit={async (values: Record<string, string>) => {
              await add(values);
              await reload();
            }}
            resetOnSuccess
          >
            <NewCredentialFields nameLabel={t('passkeys.name')} nameHint={t('passkeys.nameHint')} twoFactor={props.twoFactor} />
          </Form>
        )
      }
    />
  );
}

/**
 * The admin console's part: remove every passkey of a player below the admin's level (a lost device). The console does
 * not know how many a player has; the answer says how many went.
 */
export function AdminPasskeys(props: { userId: number; name: string; count: number; mayRemove: boolean; onChanged: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const remove = () =>
    action.run(async () => {
      setAsking(false);
      const reply = await api.delete<{ removed: number }>(`/api/admin/user/${props.userId}/passkeys`);
      await props.onChanged();
      return t('admin:passkeys.removed', { count: reply.data.removed, name: props.name });
    });
  if (!props.mayRemove) return null;
  return (
    <div role="group" aria-labelledby="user-passkeys-heading">
      <h3 id="user-passkeys-heading">{t('admin:passkeys.title')}</h3>
      <p class="muted">{props.count === 0 ? t('admin:passkeys.none') : t('admin:passkeys.count', { count: props.count })}</p>
      {/* Nothing to remove from a player who has none. */}
      {props.count > 0 && (
        <button type="button" class="secondary small" disabled={asking || action.busy} onClick={() => setAsking(true)}>
          {t('admin:passkeys.remove')}
        </button>
      )}
      {asking && (
        <Confirmation confirmLabel={t('admin:passkeys.remove')} danger onConfirm={() => void remove()} onCancel={() => setAsking(false)}>
          {t('admin:passkeys.question', { name: props.name })}
        </Confirmation>
      )}
      <div aria-live="polite">{action.outcome}</div>
    </div>
  );
}
