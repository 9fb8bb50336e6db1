// Liveness and readiness for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { databaseAnswers } from '../database/connect.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import type { Message } from '../i18n/i18n.ts';

const UP = message('health.up');
const READY = message('health.ready');
const statusEnvelope = (status: string, msg: Message) =>
  envelopeSchema({ type: 'object', properties: { status: { type: 'string' } } }, ok({ status }, msg));

export function healthRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.get(
    '/healthz',
    { schema: { summary: 'Liveness: 200 while the process is up', tags: ['health'], response: { 200: statusEnvelope('up', UP) } } },
    async () => ok({ status: 'up' }, UP),
  );
  app.get(
    '/readyz',
    {
      schema: {
        summary: 'Readiness: 200 when the database answers, else 503',
        tags: ['health'],
        response: { 200: statusEnvelope('ready', READY), ...errorResponses(503) },
      },
    },
    async () => {
      if (!(await databaseAnswers(db))) throw new ApiError(503, message('health.databaseDown'));
      return ok({ status: 'ready' }, READY);
    },
  );
}
