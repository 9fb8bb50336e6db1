// Liveness and readiness for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { databaseAnswers } from '../database/connect.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, envelopeSchema, errorResponses, ok } from '../http/envelope.ts';

const UP = 'Process is up';
const READY = 'Ready: the database answers';
const statusEnvelope = (status: string, msg: string) =>
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
      if (!(await databaseAnswers(db))) throw new ApiError(503, 'The database does not answer');
      return ok({ status: 'ready' }, READY);
    },
  );
}
