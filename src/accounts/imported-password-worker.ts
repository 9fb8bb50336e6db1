// A worker thread of imported-password-checks.ts: checks one imported password at a time, synchronously, off the
// service's event loop and off libuv's thread pool (which the service's own argon2id logins and file reads use).
import { parentPort } from 'node:worker_threads';
import { checkImported } from './imported-passwords.ts';

export interface CheckRequest {
  stored: string;
  password: string;
}

parentPort!.on('message', ({ stored, password }: CheckRequest) => {
  parentPort!.postMessage(checkImported(stored, password));
});
