// GET /metrics for Prometheus. Open unless METRICS_TOKEN is set (docs/decisions.md, Operations).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../http/envelope.ts';
import type { Metrics } from './metrics.ts';

export function metricsRoutes(app: FastifyInstance, metrics: Metrics, token: string | null) {
  const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    if (expected !== null && !sameBytes(request.headers.authorization, expected)) {
      throw unauthorized('Send the header Authorization: Bearer <METRICS_TOKEN>');
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.exposition());
  });
}

function sameBytes(given: string | undefined, expected: Buffer): boolean {
  const bytes = Buffer.from(given ?? '');
  return bytes.length === expected.length && timingSafeEqual(bytes, expected);
}
