// GET /api/admin/dashboard: the console's first view (issue 14, item 9).
import type { FastifyInstance } from 'fastify';
import { envelopeSchema, ok } from '../http/envelope.ts';
import { DASHBOARD_EXAMPLE, DASHBOARD_SCHEMA } from '../http/shapes/dashboard.ts';
import type { DashboardService } from './service.ts';

export function dashboardRoutes(app: FastifyInstance, dashboard: DashboardService) {
  app.get(
    '/api/admin/dashboard',
    {
      config: { access: 'moderator' },
      schema: {
        summary:
          'The site at a glance: accounts (all, new in the last 7 days, unconfirmed, banned), skins and capes with the bytes of their files, ' +
          'mails waiting and given up on, a mail to everyone in progress, the registration mode and the 10 newest audit entries',
        tags: ['admin'],
        response: { 200: envelopeSchema(DASHBOARD_SCHEMA, ok(DASHBOARD_EXAMPLE)) },
      },
    },
    async () => ok(await dashboard.overview()),
  );
}
