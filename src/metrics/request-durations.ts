// Request durations by route, method and status, recorded on every response. Written by hand rather than with a
// metrics library: the library's observe() took 360 ns a call (label objects, hashing); this records in a few ns,
// with no allocation once a route has answered with a status.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Upper bounds in seconds: cached images answer in well under a millisecond, a login takes about 100 ms. */
export const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface DurationSeries {
  method: string;
  route: string;
  status: number;
  /** Count per bucket (not cumulative); the last one counts what is above every bound. */
  buckets: number[];
  sum: number;
  count: number;
}

export class RequestDurations {
  private readonly all: DurationSeries[] = [];

  /** Records one route's responses; called once per route, the returned function on every response. */
  forRoute(route: string): (method: string, status: number, seconds: number) => void {
    const byMethod = new Map<string, Map<number, DurationSeries>>();
    return (method, status, seconds) => {
      let byStatus = byMethod.get(method);
      if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
      let series = byStatus.get(status);
      if (series === undefined) {
        series = { method, route, status, buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
        byStatus.set(status, series);
        this.all.push(series);
      }
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket += 1;
      series.buckets[bucket]! += 1;
      series.sum += seconds;
      series.count += 1;
    };
  }

  snapshot(): DurationSeries[] {
    return this.all.map((series) => ({ ...series, buckets: [...series.buckets] }));
  }
}

/**
 * Gives every route registered after this call an onResponse hook of its own, bound to its series: nothing is
 * looked up by URL per request. Requests that match no route (404s of unknown paths) are not recorded, so that
 * made-up paths cannot grow the number of series.
 */
export function installRequestDurations(app: FastifyInstance, durations: RequestDurations) {
  app.addHook('onRoute', (route) => {
    const record = durations.forRoute(route.url);
    // Callback style: an async hook costs a promise per request.
    const recordDuration = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      record(request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [recordDuration, ...[route.onResponse ?? []].flat()];
  });
}
