// Logging in with a passkey: the challenge from the service, the browser's WebAuthn dialog (or its autofill), and the
// answer to the service. Loaded on demand by passkey-login.tsx, which hands in api.post: imported here, api.ts would
// be shared with the first chunk, and the bundler would split that chunk for it (one more request for /login).
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { api } from '../api.ts';

export async function logInWithPasskey(autofill: boolean, post: typeof api.post) {
  const challenge = await post<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>('/api/auth/passkey/options');
  const response = await startAuthentication({ optionsJSON: challenge.data.options, useBrowserAutofill: autofill });
  return post<{ jwt: string }>('/api/auth/passkey', { challenge_id: challenge.data.challenge_id, response });
}
