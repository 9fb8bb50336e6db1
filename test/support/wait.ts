// Polls until a condition holds: for effects that background loops (mail worker, broadcasts) make later.
import { setTimeout as sleep } from 'node:timers/promises';

export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
