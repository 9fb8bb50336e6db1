// App passwords on the profile (contract sections 18 and 15b): make one for a launcher that speaks only the password
// login, with the account's password (and the two-factor code when that is on: a new way in, as a passkey is), shown
// once with a copy button; list them with their last use, and revoke one after a confirmation in the page (the list
// is the named-credentials component, shared with the passkeys).
import { useState } from 'preact/hooks';
import type { AppPasswordRecord, NewAppPassword } from '../../../src/http/shapes/app-password.ts';
import { api } from '../api.ts';
import { Form } from '../components.tsx';
import { ShownOnce } from '../editing.tsx';
import { t } from '../i18n.ts';
import { NamedCredentialsSection, NewCredentialFields, proofOf, type NamedCredentialKind } from './named-credentials.tsx';

const APP_PASSWORDS: NamedCredentialKind<AppPasswordRecord> = {
  path: 'app-passwords',
  dataAttribute: 'data-app-password',
  words: 'appPasswords',
  made: 'made',
  remove: { verb: 'revoke', done: 'revoked' },
  askPassword: false,
};

/** `twoFactor`: the account has two-factor login on, so making one asks for the code as well as the password. */
export function AppPasswordsSection(props: { twoFactor: boolean }) {
  const [made, setMade] = useState<NewAppPassword | null>(null);
  return (
    <NamedCredentialsSection
      kind={APP_PASSWORDS}
      beforeList={
        made && (
          <ShownOnce
            id={made.id}
            title={t('appPasswords.madeTitle', { name: made.name })}
            text={t('appPasswords.madeText')}
            values={[{ label: t('appPasswords.password'), value: made.password }]}
            doneLabel={t('appPasswords.done')}
            onDone={() => setMade(null)}
          />
        )
      }
      form={(reload) => (
        <Form
          submitLabel={t('appPasswords.make')}
          submit={async (values: Record<string, string>) => {
            setMade((await api.post<NewAppPassword>('/api/home/app-passwords', { name: values.name, ...proofOf(values) })).data);
            await reload();
          }}
          resetOnSuccess
        >
          <NewCredentialFields nameLabel={t('appPasswords.name')} nameHint={t('appPasswords.nameHint')} twoFactor={props.twoFactor} />
        </Form>
      )}
    />
  );
}
