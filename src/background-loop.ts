// Runs a pass of background work now and then: every `intervalMs`, or at once when woken. One pass at a time;
// stop() waits for the pass in progress, so a stopping service never cuts a transaction in half.
import type { FastifyBaseLogger } from 'fastify';

export class BackgroundLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private wakeAgain = false;
  private stopped = true;

  constructor(
    private readonly name: string,
    private readonly pass: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start() {
    this.stopped = false;
    this.wake();
  }

  /** Asks for a pass now instead of at the next interval (for example after a request queued work). */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.pass()
      .catch((error) => this.log.error({ err: error }, `${this.name} pass failed`))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), this.intervalMs);
          this.timer.unref();
        }
      });
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
