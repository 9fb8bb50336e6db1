// Every admin list takes `limit` (default 100, at most 1000) and `offset`, keeps `data` an array, and sends the
// total in an X-Total-Count header (contract section 5).
import type { FastifyReply } from 'fastify';
import { envelopeSchema, ok } from './envelope.ts';

export interface PageQuery {
  limit: number;
  offset: number;
}

export const pageQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    // Bounded so that a huge number is a 400, not a database error: PostgreSQL's largest integer.
    offset: { type: 'integer', minimum: 0, maximum: 2_147_483_647, default: 0 },
  },
} as const;

/** The end of the year 9999 in Unix seconds: the latest time a request may name, so that a huge one is a 400, not a database error. */
export const LATEST_UNIX_SECONDS = 253_402_300_799;

/** A time filter in Unix seconds, up to LATEST_UNIX_SECONDS. */
export const unixSecondsQuerySchema = { type: 'integer', minimum: 0, maximum: LATEST_UNIX_SECONDS } as const;

/** The envelope of one page of a list, with the list's total in X-Total-Count. */
export function pageEnvelope<T>(reply: FastifyReply, page: { records: T[]; total: number }) {
  reply.header('x-total-count', String(page.total));
  return ok(page.records);
}

/** The response schema of a list route: an envelope around an array of `item`, with the X-Total-Count header. */
export function pageResponse(item: object, example: unknown) {
  return {
    ...envelopeSchema({ type: 'array', items: item }, ok([example])),
    headers: { 'x-total-count': { type: 'integer', description: 'how many records the whole list has' } },
  };
}
