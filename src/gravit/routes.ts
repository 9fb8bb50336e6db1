// The GravitLauncher API under /api/gravit/ (contract section 10): what a LaunchServer's `myhttp` auth core calls
// (HttpMethodExample's MyHttpAuthCoreProvider), and the password check of its json password verifier. Thin routes
// over GravitService; every call needs the shared secret GRAVIT_TOKEN as its bearer; errors are `{error, code}`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fixedError } from '../http/envelope.ts';
import { bearerMatches } from '../http/secrets.ts';
import { GRAVIT_API_PATH, gravitErrors } from './errors.ts';
import type { GravitService } from './service.ts';
import {
  GRAVIT_USER_EXAMPLE,
  GRAVIT_USER_SCHEMA,
  HARDWARE_INFO_EXAMPLE,
  USER_HARDWARE_EXAMPLE,
  USER_HARDWARE_SCHEMA,
  USER_SESSION_EXAMPLE,
  USER_SESSION_SCHEMA,
  type HardwareInfo,
} from './shapes.ts';
import { objectSchema, withSchemaTypes } from '../http/schema-types.ts';

const tags = ['GravitLauncher'];
/** Who may call, in the OpenAPI document (instead of the JWT access of the other APIs), after what else is to say. */
const access = (details?: string) => ({
  security: [{ gravitToken: [] }],
  description: [details, 'Access: a GravitLauncher LaunchServer, with the header Authorization: Bearer <GRAVIT_TOKEN>.']
    .filter(Boolean)
    .join('\n\n'),
});
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const token = text(512);
/** GravitLauncher writes byte arrays as URL-safe base64 (with or without padding). */
const bytes = { type: 'string', pattern: '^[A-Za-z0-9_-]+={0,2}$', maxLength: 8192 } as const;
/** The schema, or null (the pattern and length apply to strings only). */
const nullable = <const T extends { type: string }>(schema: T) => ({ ...schema, type: [schema.type, 'null'] }) as const;
const numericId = { type: 'string', pattern: '^[0-9]{1,15}$', description: 'a hardware id' } as const;

/** Contract section 15: every string of a hardware report, byte fields as their base64 text, bounds what matching costs. */
const MAX_HARDWARE_TEXT = 256;
const hardwareText = { type: ['string', 'null'], maxLength: MAX_HARDWARE_TEXT } as const;
const wholeNumber = { type: 'integer' } as const;
/** HardwareReportRequest.HardwareInfo as Gson writes it: fields that are null in Java are left out. */
const hardwareInfoInput = {
  type: 'object',
  properties: {
    bitness: wholeNumber,
    totalMemory: wholeNumber,
    logicalProcessors: wholeNumber,
    physicalProcessors: wholeNumber,
    processorMaxFreq: wholeNumber,
    battery: { type: 'boolean' },
    hwDiskId: hardwareText,
    baseboardSerialNumber: hardwareText,
    graphicCard: hardwareText,
    displayId: nullable({ ...bytes, maxLength: MAX_HARDWARE_TEXT }),
  },
} as const satisfies { type: string; properties: Record<keyof HardwareInfo, object> };
/** The UserHardware the LaunchServer got from us before; only its id is read. */
const hardwareRef = { type: 'object', required: ['id'], properties: { id: numericId } } as const;
const HARDWARE_REF_EXAMPLE = { hardware: USER_HARDWARE_EXAMPLE };

const USER_HARDWARE_RESPONSE = { ...USER_HARDWARE_SCHEMA, examples: [USER_HARDWARE_EXAMPLE] };
const NO_HARDWARE = { 204: { description: 'No such hardware', type: 'null' } } as const;
const SUCCESS = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string', enum: ['success'] } },
  examples: [{ message: 'success' }],
} as const;
const SESSION_RESPONSE = { ...USER_SESSION_SCHEMA, examples: [USER_SESSION_EXAMPLE] };
const USER_RESPONSE = { ...GRAVIT_USER_SCHEMA, examples: [GRAVIT_USER_EXAMPLE] };
const EMPTY = { type: 'object', additionalProperties: false, examples: [{}] } as const;
const SERVER_ID_EXAMPLE = '-51b1471f2f756c9a5081d8e39f56aaffdbd6a9de';

/** HttpMethodExample sends `serverID` in its older versions and `serverId` in its newer ones. */
function serverIdOf(body: { serverId?: string; serverID?: string }): string {
  const serverId = body.serverId ?? body.serverID;
  if (serverId === undefined) throw fixedError(400, 'field "serverId" is required');
  return serverId;
}
const serverIdFields = { serverId: text(128), serverID: text(128) } as const;

export async function gravitRoutes(fastify: FastifyInstance, gravit: GravitService, bearerToken: string) {
  await fastify.register(async (plugin) => {
    const api = withSchemaTypes(plugin);
    api.addHook('onRequest', async (request: FastifyRequest) => {
      if (!bearerMatches(request.headers.authorization, bearerToken)) {
        throw fixedError(401, 'Send the header Authorization: Bearer <GRAVIT_TOKEN>, the token in the LaunchServer’s configuration');
      }
    });
    const at = (path: string) => `${GRAVIT_API_PATH}${path}`;
    const noContent = (reply: FastifyReply) => reply.code(204).send();

    // ---- accounts and sessions ----
    api.post(
      at('authorize'),
      {
        schema: {
          summary:
            'Log in with a profile name (that profile) or the mail address (the primary profile) and the password: a new launcher session',
          ...access(
            'Unknown user and wrong password: auth.wrongpassword; banned: auth.userblocked. With two-factor login on: auth.require2fa without totpCode (the launcher then asks the player for the code), auth.wrongtotp for a wrong or used code (a recovery code works too); wrong codes count as failed logins.',
          ),
          tags,
          body: objectSchema(
            ['login', 'password'],
            { login: text(320), password: text(1024), totpCode: { type: 'string', maxLength: 16 } },
            { login: 'Steve', password: 'correct horse battery' },
          ),
          response: { 200: SESSION_RESPONSE, ...gravitErrors(401, 403, 429) },
        },
      },
      async (request) => gravit.authorize(request.body.login, request.body.password, request.body.totpCode),
    );

    api.post(
      at('getbytoken'),
      {
        schema: {
          summary: 'The session of an access token (without the refresh token); code 1001 when it expired, 1000 when invalid',
          ...access(),
          tags,
          body: objectSchema(['accessToken'], { accessToken: token }, { accessToken: USER_SESSION_EXAMPLE.accessToken }),
          response: { 200: SESSION_RESPONSE, ...gravitErrors(401) },
        },
      },
      async (request) => gravit.sessionByToken(request.body.accessToken),
    );

    api.post(
      at('refreshtoken'),
      {
        schema: {
          summary: 'New access and refresh tokens for the session; the old ones stop working at once; code 1002 when invalid',
          ...access(),
          tags,
          body: objectSchema(['refreshToken'], { refreshToken: token }, { refreshToken: USER_SESSION_EXAMPLE.refreshToken }),
          response: { 200: SESSION_RESPONSE, ...gravitErrors(401) },
        },
      },
      async (request) => gravit.refresh(request.body.refreshToken),
    );

    api.get(
      at('getbyusername'),
      {
        schema: {
          summary: 'A player by name, without regard to letter case',
          ...access(),
          tags,
          querystring: { type: 'object', required: ['username'], properties: { username: text(64) } },
          response: { 200: USER_RESPONSE, ...gravitErrors(404) },
        },
      },
      async (request) => gravit.userByUsername(request.query.username),
    );

    api.get(
      at('getbyuuid'),
      {
        schema: {
          summary: 'A player by UUID (with or without dashes, any letter case)',
          ...access(),
          tags,
          querystring: { type: 'object', required: ['uuid'], properties: { uuid: text(64) } },
          response: { 200: USER_RESPONSE, ...gravitErrors(404) },
        },
      },
      async (request) => gravit.userByUuid(request.query.uuid),
    );

    // ---- joining game servers ----
    api.post(
      at('joinserver'),
      {
        schema: {
          summary: 'The game joins a server with the launcher session’s access token (also one past its life); kept 30 seconds',
          ...access('The player as username or uuid or both (both must be the token’s player); serverID is accepted for serverId.'),
          tags,
          body: objectSchema(
            ['accessToken'],
            { accessToken: token, ...serverIdFields, username: text(64), uuid: text(64) },
            { accessToken: USER_SESSION_EXAMPLE.accessToken, serverId: SERVER_ID_EXAMPLE, uuid: GRAVIT_USER_EXAMPLE.uuid },
          ),
          response: { 200: EMPTY, ...gravitErrors(401, 403) },
        },
      },
      async (request) => {
        const { accessToken, username, uuid } = request.body;
        await gravit.joinServer({ accessToken, serverId: serverIdOf(request.body), username, uuid });
        return {};
      },
    );

    api.post(
      at('checkserver'),
      {
        schema: {
          summary: 'The game server checks a joining player: the player when their latest join carried this server id',
          ...access('serverID is accepted for serverId.'),
          tags,
          body: objectSchema(['username'], { username: text(64), ...serverIdFields }, { username: 'Steve', serverId: SERVER_ID_EXAMPLE }),
          response: { 200: USER_RESPONSE, ...gravitErrors(403) },
        },
      },
      async (request) => gravit.checkServer(request.body.username, serverIdOf(request.body)),
    );

    // ---- the password check of a LaunchServer reading the users table itself ----
    api.post(
      at('verifypassword'),
      {
        schema: {
          summary: 'GravitLauncher’s json password verifier: whether the password is that of the account with this stored hash',
          ...access(
            'Only hashes stored in the users table are checked; failures count on the account’s login limit (then 429), and a banned, unconfirmed or unfinished account gets success false. With two-factor login on, only password:code (the code after the last colon) succeeds.',
          ),
          tags,
          body: objectSchema(
            ['encryptedPassword', 'password'],
            { encryptedPassword: text(1024), password: text(1024) },
            { encryptedPassword: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2g', password: 'correct horse battery' },
          ),
          response: {
            200: {
              type: 'object',
              required: ['success'],
              additionalProperties: false,
              properties: { success: { type: 'boolean' } },
              examples: [{ success: true }],
            },
            ...gravitErrors(429),
          },
        },
      },
      async (request) => ({ success: await gravit.verifyPassword(request.body.encryptedPassword, request.body.password) }),
    );

    // ---- hardware ids ----
    const found = (reply: FastifyReply) => (hardware: unknown) => hardware ?? noContent(reply);
    api.post(
      at('hardware/getbykey'),
      {
        schema: {
          summary: 'The hardware holding this launcher public key; 204 when none',
          ...access(),
          tags,
          body: objectSchema(['publicKey'], { publicKey: bytes }, { publicKey: USER_HARDWARE_EXAMPLE.publicKey }),
          response: { 200: USER_HARDWARE_RESPONSE, ...NO_HARDWARE },
        },
      },
      async (request, reply) => found(reply)(await gravit.hardwareByKey(request.body.publicKey)),
    );

    api.post(
      at('hardware/getbydata'),
      {
        schema: {
          summary: 'The hardware this report describes (GravitLauncher’s weighting of the identifiers); 204 when none',
          ...access(),
          tags,
          body: objectSchema(['info'], { info: hardwareInfoInput }, { info: HARDWARE_INFO_EXAMPLE }),
          response: { 200: USER_HARDWARE_RESPONSE, ...NO_HARDWARE },
        },
      },
      async (request, reply) => found(reply)(await gravit.hardwareByData(request.body.info)),
    );

    api.post(
      at('hardware/getbyid'),
      {
        schema: {
          summary: 'The hardware with this id; 204 when none',
          ...access(),
          tags,
          body: objectSchema(['id'], { id: numericId }, { id: USER_HARDWARE_EXAMPLE.id }),
          response: { 200: USER_HARDWARE_RESPONSE, ...NO_HARDWARE },
        },
      },
      async (request, reply) => found(reply)(await gravit.hardwareById(request.body.id)),
    );

    api.post(
      at('hardware/create'),
      {
        schema: {
          summary: 'Records new hardware with the launcher’s public key (audited); 409 when the key is another record’s',
          ...access(),
          tags,
          body: objectSchema(
            ['info', 'publicKey'],
            { info: hardwareInfoInput, publicKey: bytes },
            { info: HARDWARE_INFO_EXAMPLE, publicKey: USER_HARDWARE_EXAMPLE.publicKey },
          ),
          response: { 200: USER_HARDWARE_RESPONSE, ...gravitErrors(409) },
        },
      },
      async (request) => gravit.createHardware(request.body.info, request.body.publicKey),
    );

    const success = { message: 'success' } as const;
    api.post(
      at('hardware/connect'),
      {
        schema: {
          summary: 'Links the session’s player to the hardware (audited the first time)',
          ...access(),
          tags,
          body: objectSchema(
            ['hardware', 'userSession'],
            {
              hardware: hardwareRef,
              userSession: {
                type: 'object',
                required: ['user'],
                properties: { user: { type: 'object', required: ['uuid'], properties: { uuid: text(64) } } },
              },
            },
            { ...HARDWARE_REF_EXAMPLE, userSession: USER_SESSION_EXAMPLE },
          ),
          response: { 200: SUCCESS, ...gravitErrors(404) },
        },
      },
      async (request) => {
        await gravit.connectHardware(request.body.hardware, request.body.userSession.user.uuid);
        return success;
      },
    );

    api.post(
      at('hardware/addpublickey'),
      {
        schema: {
          summary: 'Gives the hardware the launcher’s new public key (audited)',
          ...access(),
          tags,
          body: objectSchema(
            ['hardware', 'publicKey'],
            { hardware: hardwareRef, publicKey: bytes },
            {
              ...HARDWARE_REF_EXAMPLE,
              publicKey: USER_HARDWARE_EXAMPLE.publicKey,
            },
          ),
          response: { 200: SUCCESS, ...gravitErrors(404, 409) },
        },
      },
      async (request) => {
        await gravit.addPublicKey(request.body.hardware, request.body.publicKey);
        return success;
      },
    );

    api.post(
      at('hardware/getusers'),
      {
        schema: {
          summary: 'The players who used the hardware (linked through this API or by a LaunchServer’s sql core)',
          ...access(),
          tags,
          body: objectSchema(['hardware'], { hardware: hardwareRef }, HARDWARE_REF_EXAMPLE),
          response: { 200: { type: 'array', items: GRAVIT_USER_SCHEMA, examples: [[GRAVIT_USER_EXAMPLE]] }, ...gravitErrors(404) },
        },
      },
      async (request) => gravit.hardwareUsers(request.body.hardware),
    );

    for (const banned of [true, false]) {
      api.post(
        at(banned ? 'hardware/ban' : 'hardware/unban'),
        {
          schema: {
            summary: banned ? 'Bans the hardware (audited)' : 'Lifts the hardware’s ban (audited)',
            ...access(),
            tags,
            body: objectSchema(['hardware'], { hardware: hardwareRef }, HARDWARE_REF_EXAMPLE),
            response: { 200: SUCCESS, ...gravitErrors(404) },
          },
        },
        async (request) => {
          await gravit.setHardwareBanned(request.body.hardware, banned);
          return success;
        },
      );
    }
  });
}
