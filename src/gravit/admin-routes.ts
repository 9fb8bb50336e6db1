// Hardware ids in the admin API (contract section 10): list them with their players, ban or unban one (audited).
// Served whether or not GRAVIT_TOKEN is set: a LaunchServer's sql core fills the same tables without this API.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { MAX_USER_ID } from '../accounts/identifiers.ts';
import { LEVELS } from '../accounts/standing.ts';
import { checkMayBan } from '../accounts/levels.ts';
import { envelopeSchema, errorResponses, message, notFound, ok } from '../http/envelope.ts';
import { pageEnvelope, pageQuerySchema, pageResponse } from '../http/pagination.ts';
import type { HardwareStore } from './hardware.ts';
import { HARDWARE_RECORD_EXAMPLE, HARDWARE_RECORD_SCHEMA, HARDWARE_STATUS_EXAMPLE, HARDWARE_STATUS_SCHEMA } from './shapes.ts';
import { withSchemaTypes } from '../http/schema-types.ts';

const tags = ['admin'];
const HARDWARE_SAVED = message('gravit.hardwareSaved');

/** `launcherApi`: whether GRAVIT_TOKEN is set (the launcher API reports hardware). */
export function hardwareAdminRoutes(fastify: FastifyInstance, hardware: HardwareStore, launcherApi: boolean) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/admin/hardware/status',
    {
      config: { access: 'moderator' },
      schema: {
        summary: 'Whether there is hardware to show: GRAVIT_TOKEN set, and how many hardware ids are recorded',
        description: 'The console shows its Hardware tab when either: a LaunchServer’s sql core records hardware without GRAVIT_TOKEN.',
        tags,
        response: { 200: envelopeSchema(HARDWARE_STATUS_SCHEMA, ok(HARDWARE_STATUS_EXAMPLE)) },
      },
    },
    async () => ok({ launcher_api: launcherApi, reported: await hardware.count() }),
  );
  app.get(
    '/api/admin/hardware',
    {
      config: { access: 'moderator' },
      schema: {
        summary:
          'Hardware ids GravitLauncher reported, newest first, each with the players who used it; paginated; user: only that player’s',
        tags,
        querystring: {
          ...pageQuerySchema,
          properties: {
            ...pageQuerySchema.properties,
            // At most PostgreSQL's largest integer, the type of user ids there.
            user: { type: 'integer', minimum: 1, maximum: MAX_USER_ID, description: 'a user id: only the hardware that player used' },
          },
        },
        response: { 200: pageResponse(HARDWARE_RECORD_SCHEMA, HARDWARE_RECORD_EXAMPLE) },
      },
    },
    async (request, reply) => pageEnvelope(reply, await hardware.list(request.query)),
  );

  app.patch(
    '/api/admin/hardware/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Ban or unban a hardware id: a LaunchServer with the hardware feature then refuses that machine',
        tags,
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9]{1,15}$' } } },
        body: {
          type: 'object',
          required: ['banned'],
          additionalProperties: false,
          properties: { banned: { type: 'boolean' } },
          examples: [{ banned: true }],
        },
        response: {
          200: envelopeSchema(HARDWARE_RECORD_SCHEMA, ok({ ...HARDWARE_RECORD_EXAMPLE, banned: true }, HARDWARE_SAVED)),
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const editor = callerOf(request);
      // A hardware ban reaches every player of the machine: the ban rule of levels.ts against the highest of them.
      checkMayBan(editor, (await hardware.highestPerms(id)) ?? LEVELS.banned);
      if (!(await hardware.setBanned(editor, id, request.body.banned))) throw notFound('gravit.noHardware', { id });
      return ok(await hardware.record(id), HARDWARE_SAVED);
    },
  );
}
