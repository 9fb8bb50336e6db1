// Where imported passwords of the slow formats (bcrypt, argon2, PBKDF2, scrypt: imported-passwords.ts) are checked:
// a pool of two worker threads, so that a check never holds the event loop (bcryptjs is JavaScript: a cost-10 check
// held it ~300 ms) nor libuv's four threads, which argon2id logins share; and at most two checks run at once per
// process (contract section 15b), so that guesses at imported accounts cost the service two threads at most. A third
// check at once is refused (ImportedChecksBusy: the login answers 429, counted as a failure). The threads start on
// the first check, never keep the process alive, and end with close() (the app's onClose).
import { Worker } from 'node:worker_threads';
import { checkImported, isSlowCheck } from './imported-passwords.ts';
import type { CheckRequest } from './imported-password-worker.ts';

/** Checks at once per process (contract section 15b). */
export const IMPORTED_CHECKS_AT_ONCE = 2;

/** Thrown by ImportedPasswordChecks.check when every worker is busy: the caller answers 429. */
export class ImportedChecksBusy extends Error {
  constructor() {
    super('every imported password check is busy');
  }
}

interface PoolWorker {
  worker: Worker;
  busy: boolean;
}

export class ImportedPasswordChecks {
  private readonly workers: PoolWorker[] = [];
  private closed = false;

  constructor(private readonly size = IMPORTED_CHECKS_AT_ONCE) {}

  /**
   * Whether `password` is the password of the imported value `stored`. A slow format within its bounds runs in a
   * worker thread; everything else (digests, unusable, malformed or beyond the bounds) answers at once. Throws
   * ImportedChecksBusy at once (not in the promise), checking nothing, when `size` checks are running.
   */
  check(stored: string, password: string): Promise<boolean> {
    if (!isSlowCheck(stored)) return Promise.resolve(checkImported(stored, password));
    const free = this.workers.find((pooled) => !pooled.busy) ?? this.start();
    if (free === null) throw new ImportedChecksBusy();
    return this.run(free, { stored, password });
  }

  /** Ends the worker threads; a check running then fails. The pool starts new ones if it is used again. */
  async close(): Promise<void> {
    this.closed = true;
    const ending = this.workers.splice(0).map(({ worker }) => worker.terminate());
    await Promise.all(ending);
    this.closed = false;
  }

  private async run(free: PoolWorker, request: CheckRequest): Promise<boolean> {
    free.busy = true;
    free.worker.ref(); // the answer is awaited: the process waits for it
    try {
      return await new Promise<boolean>((resolve, reject) => {
        const { worker } = free;
        const settle = (finish: () => void) => {
          worker.off('message', answered);
          worker.off('error', failed);
          worker.off('exit', ended);
          finish();
        };
        const answered = (verified: boolean) => settle(() => resolve(verified === true));
        const failed = (error: Error) => settle(() => reject(error));
        const ended = () => settle(() => reject(new Error('the imported password check ended with its worker')));
        worker.on('message', answered);
        worker.on('error', failed);
        worker.on('exit', ended);
        worker.postMessage(request);
      });
    } catch (error) {
      this.forget(free); // a worker that failed is not used again
      throw error;
    } finally {
      free.busy = false;
      free.worker.unref();
    }
  }

  /** A new worker when the pool has room, else null. */
  private start(): PoolWorker | null {
    if (this.closed || this.workers.length >= this.size) return null;
    const worker = new Worker(new URL('./imported-password-worker.ts', import.meta.url));
    // A thread waiting for work never keeps the process from ending (SIGTERM, the CLI's end).
    worker.unref();
    const pooled: PoolWorker = { worker, busy: false };
    worker.on('error', () => this.forget(pooled));
    worker.on('exit', () => this.forget(pooled));
    this.workers.push(pooled);
    return pooled;
  }

  private forget(pooled: PoolWorker): void {
    const index = this.workers.indexOf(pooled);
    if (index >= 0) this.workers.splice(index, 1);
    void pooled.worker.terminate();
  }
}
