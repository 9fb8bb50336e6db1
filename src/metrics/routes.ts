// GET /metrics for Prometheus. Open unless METRICS_TOKEN is set (docs/decisions.md, Operations).
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../http/envelope.ts';
import { bearerMatches } from '../http/secrets.ts';
import type { Metrics } from './metrics.ts';

export function metricsRoutes(app: FastifyInstance, metrics: Metrics, token: string | null) {
  app.get('/metrics', async (request, reply) => {
    if (token !== null && !bearerMatches(request.headers.authorization, token)) {
      throw unauthorized('metrics.tokenNeeded');
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.exposition());
  });
}
