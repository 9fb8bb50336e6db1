// Liveness and readiness for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { databaseAnswers } from '../database/connect.ts';
import type { Database } from '../database/schema.ts';
import { ApiError, ok } from '../http/envelope.ts';

export function healthRoutes(app: FastifyInstance, db: Kysely<Database>) {
  app.get('/healthz', async () => ok({ status: 'up' }, 'Process is up'));
  app.get('/readyz', async () => {
    if (!(await databaseAnswers(db))) throw new ApiError(503, 'The database does not answer');
    return ok({ status: 'ready' }, 'Ready: the database answers');
  });
}
