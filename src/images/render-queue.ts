// The budget of uncached renders (contract section 15b, the review's "render amplification"): an image not in the
// render cache costs from a fraction of a millisecond (a small head) to tens (a 512-pixel 3D body) of CPU, and anyone
// can ask for a new variant with each request. Every such render counts on its client address's limit (600 a
// minute, IPv6 by /64; 429), then runs when one of `running` places is free, waiting in a queue of at most `waiting`
// (beyond: 503 with Retry-After: 1). Cached answers never come here.
//
// Renders run on the event loop (docs/performance.md, "Renders on the event loop"): a place is held from the texture
// reads to the PNG bytes, and the rasterising itself starts on a turn of the event loop of its own (nextTurn), so
// requests that arrive meanwhile are answered between two renders, never after the whole queue.
import { availableParallelism } from 'node:os';
import { ApiError, message } from '../http/envelope.ts';
import { Queue, RULES, type RateLimiter } from '../ratelimit/limiter.ts';

export interface RenderLimits {
  /** Renders in progress at once. */
  running: number;
  /** Renders waiting for a place, at most. */
  waiting: number;
}

/** Contract section 15b: as many at once as the machine has cores, and 256 waiting. */
export const RENDER_LIMITS: RenderLimits = { running: availableParallelism(), waiting: 256 };

/** Resolves on a later turn of the event loop, after the I/O that is ready now has been handled. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const queueFull = () => new ApiError(503, message('images.renderQueueFull'), { 'retry-after': '1' });

export class RenderQueue {
  private running = 0;
  /** Who waits for a place, first come first served. */
  private readonly waiting = new Queue<() => void>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: RenderLimits = RENDER_LIMITS,
  ) {}

  /**
   * Runs the uncached render `render` for the client at `clientAddress`: 429 when the address has had its renders of
   * the minute, 503 when the queue is full (then the render is not counted).
   */
  async run<T>(clientAddress: string, render: () => Promise<T>): Promise<T> {
    if (this.full()) throw queueFull();
    await this.limiter.take(RULES.rendersPerAddress, clientAddress);
    try {
      await this.place();
    } catch (error) {
      await this.limiter.refund(RULES.rendersPerAddress, clientAddress);
      throw error;
    }
    try {
      return await render();
    } finally {
      this.release();
    }
  }

  private full() {
    return this.running >= this.limits.running && this.waiting.length >= this.limits.waiting;
  }

  private place(): Promise<void> {
    if (this.running < this.limits.running) {
      this.running += 1;
      return Promise.resolve();
    }
    // Checked again: the address's count was taken meanwhile (a Redis round trip), and others may have queued.
    if (this.full()) return Promise.reject(queueFull());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the place to the first in the queue, or frees it. */
  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
