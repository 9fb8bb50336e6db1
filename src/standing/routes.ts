// Standing in the game (contract section 24): the game's attributes under minecraftservices/ (only with
// GAME_SERVICES; otherwise they are not there and answer 404), and the administrators' bans.
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok } from '../http/envelope.ts';
import { objectSchema, withSchemaTypes } from '../http/schema-types.ts';
import { BAN_EXAMPLE, BAN_SCHEMA, PLAYER_BAN_SCHEMA } from '../http/shapes/ban.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { USER_IDENTIFIER_PARAMS } from '../http/shapes/user-identifier.ts';
import { LATEST_UNIX_SECONDS } from '../http/pagination.ts';
import { BAN_REASONS, BAN_SCOPES } from '../shared/ban-reasons.ts';
import { API_ROOT_PATH, yggdrasilErrors } from '../yggdrasil/errors.ts';
import type { BannedScope, GameAttributes, GameAttributesService, Privileges } from './attributes.ts';
import type { Bans } from './bans.ts';
import type { BlockedServer, BlockedServers } from './blocked-servers.ts';
import type { BlockedPlayer, PlayerBlocks } from './blocks.ts';

const gameTags = ['game login (Yggdrasil)'];
const adminTags = ['admin'];
const BAN_CREATED = message('bans.banCreated');
const BAN_LIFTED = message('bans.banLifted');

const enabled = recordSchema<{ enabled: boolean }>({ enabled: { type: 'boolean' } });
const PRIVILEGES_SCHEMA = recordSchema<Privileges>({
  onlineChat: enabled,
  multiplayerServer: enabled,
  multiplayerRealms: enabled,
  telemetry: enabled,
  optionalTelemetry: enabled,
});
const PRIVILEGES_EXAMPLE: Privileges = {
  onlineChat: { enabled: true },
  multiplayerServer: { enabled: true },
  multiplayerRealms: { enabled: false },
  telemetry: { enabled: false },
  optionalTelemetry: { enabled: false },
};
const BANNED_SCOPE_SCHEMA = recordSchema<BannedScope>(
  {
    banId: { type: 'string', description: 'the ban’s UUID without dashes' },
    expires: { type: 'string', description: 'ISO 8601 instant; absent: permanent' },
    reason: { type: 'string', description: 'the game’s reason number, as a string' },
    reasonMessage: { type: 'string' },
  },
  { expires: true, reasonMessage: true },
);
const TOGGLE = { type: 'string', enum: ['ENABLED', 'DISABLED'] } as const;
const ATTRIBUTES_SCHEMA = recordSchema<GameAttributes>(
  {
    privileges: PRIVILEGES_SCHEMA,
    profanityFilterPreferences: recordSchema<GameAttributes['profanityFilterPreferences']>({ profanityFilterOn: { type: 'boolean' } }),
    friendsPreferences: recordSchema<NonNullable<GameAttributes['friendsPreferences']>>({ friends: TOGGLE, acceptInvites: TOGGLE }),
    banStatus: recordSchema<GameAttributes['banStatus']>({
      bannedScopes: recordSchema<GameAttributes['banStatus']['bannedScopes']>({ MULTIPLAYER: BANNED_SCOPE_SCHEMA }, { MULTIPLAYER: true }),
    }),
    chatPreferences: recordSchema<GameAttributes['chatPreferences']>({
      textCommunication: {
        type: 'string',
        enum: ['ENABLED', 'DISABLED'],
        description: '26.x: DISABLED when an admin switched the chat off',
      },
    }),
  },
  { friendsPreferences: true },
);
const ATTRIBUTES_EXAMPLE: GameAttributes = {
  privileges: PRIVILEGES_EXAMPLE,
  profanityFilterPreferences: { profanityFilterOn: false },
  banStatus: {
    bannedScopes: {
      MULTIPLAYER: {
        banId: '8f59cdb2f5754768b0e62e0b0be19557',
        expires: '2026-10-01T00:00:00Z',
        reason: '5',
        reasonMessage: 'Insults in chat',
      },
    },
  },
  chatPreferences: { textCommunication: 'ENABLED' },
};

const BAN_PARAMS = {
  type: 'object',
  required: ['identifier', 'ban'],
  properties: { ...USER_IDENTIFIER_PARAMS.properties, ban: { type: 'string', maxLength: 64 } },
} as const;

export function standingGameRoutes(fastify: FastifyInstance, attributes: GameAttributesService) {
  const app = withSchemaTypes(fastify);
  const at = (path: string) => `${API_ROOT_PATH}minecraftservices/${path}`;
  app.get(
    at('player/attributes'),
    {
      config: { access: 'game' },
      schema: {
        summary: 'What the player may do online, their profanity filter, and a multiplayer ban the game shows (Minecraft 1.18+)',
        tags: gameTags,
        response: { 200: { ...ATTRIBUTES_SCHEMA, examples: [ATTRIBUTES_EXAMPLE] }, ...yggdrasilErrors(401, 403) },
      },
    },
    async (request) => attributes.attributes(callerOf(request)),
  );
  const saveSchema = {
    summary: 'Saves what the game may change (the profanity filter) and answers all the attributes',
    tags: gameTags,
    body: {
      type: 'object',
      properties: {
        profanityFilterPreferences: { type: 'object', properties: { profanityFilterOn: { type: 'boolean' } } },
        friendsPreferences: { type: 'object', properties: { friends: TOGGLE, acceptInvites: TOGGLE } },
      },
      examples: [{ profanityFilterPreferences: { profanityFilterOn: true } }],
    },
    response: { 200: { ...ATTRIBUTES_SCHEMA, examples: [ATTRIBUTES_EXAMPLE] }, ...yggdrasilErrors(400, 401, 403) },
  } as const;
  // The game sends POST; one Mojang-API client sends PUT (wire-shapes-26 §1.4): both are answered.
  for (const method of ['post', 'put'] as const) {
    app[method](at('player/attributes'), { config: { access: 'game' }, schema: saveSchema }, async (request) =>
      attributes.save(callerOf(request), request.body ?? {}),
    );
  }
  app.get(
    at('privileges'),
    {
      config: { access: 'game' },
      schema: {
        summary: 'What the player may do online, in the form of the games before 1.18',
        tags: gameTags,
        response: {
          200: {
            ...recordSchema<{ privileges: Privileges }>({ privileges: PRIVILEGES_SCHEMA }),
            examples: [{ privileges: PRIVILEGES_EXAMPLE }],
          },
          ...yggdrasilErrors(401),
        },
      },
    },
    async (request) => ({ privileges: attributes.privileges(await attributes.chatAllowed(callerOf(request).user.id)) }),
  );
}

export function banRoutes(fastify: FastifyInstance, bans: Bans) {
  const app = withSchemaTypes(fastify);
  app.post(
    '/api/admin/user/:identifier/bans',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Ban a user from multiplayer (they still log in and play alone) or their account, for a reason the game shows; until expires (Unix seconds), or for good',
        tags: adminTags,
        params: USER_IDENTIFIER_PARAMS,
        body: objectSchema(
          ['scope', 'reason'],
          {
            scope: { type: 'string', enum: [...BAN_SCOPES] },
            reason: { type: 'string', enum: [...BAN_REASONS] },
            message: { type: 'string', maxLength: 500 },
            expires: { type: 'integer', minimum: 0, maximum: LATEST_UNIX_SECONDS },
          },
          { scope: 'multiplayer', reason: 'HATE_SPEECH', message: 'Insults in chat', expires: 1790812800 },
        ),
        response: { 201: envelopeSchema(BAN_SCHEMA, ok(BAN_EXAMPLE, BAN_CREATED)), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const ban = await bans.create(callerOf(request), request.params.identifier, request.body);
      return reply.code(201).send(ok(ban, BAN_CREATED));
    },
  );
  app.get(
    '/api/admin/user/:identifier/bans',
    {
      config: { access: 'moderator' },
      schema: {
        summary: "A user's bans, newest first, ended and lifted ones too",
        tags: adminTags,
        params: USER_IDENTIFIER_PARAMS,
        response: { 200: envelopeSchema({ type: 'array', items: BAN_SCHEMA }, ok([BAN_EXAMPLE])), ...errorResponses(404) },
      },
    },
    async (request) => ok(await bans.list(request.params.identifier)),
  );
  app.get(
    '/api/home/bans',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Your bans that hold now, with their reason and end (the profile shows them)',
        tags: ['home'],
        response: {
          200: envelopeSchema(
            { type: 'array', items: PLAYER_BAN_SCHEMA },
            ok([
              {
                id: BAN_EXAMPLE.id,
                scope: 'multiplayer',
                reason: 'HATE_SPEECH',
                message: 'Insults in chat',
                created: 1788220800,
                expires: 1790812800,
              },
            ]),
          ),
        },
      },
    },
    async (request) => ok(await bans.current(callerOf(request).user.id)),
  );
  app.delete(
    '/api/admin/user/:identifier/bans/:ban',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Lift a ban that holds (audited as ban.lift; the player is mailed)',
        tags: adminTags,
        params: BAN_PARAMS,
        response: {
          200: envelopeSchema(BAN_SCHEMA, ok({ ...BAN_EXAMPLE, lifted: 1789000000, active: false }, BAN_LIFTED)),
          ...errorResponses(403, 404, 409),
        },
      },
    },
    async (request) => ok(await bans.lift(callerOf(request), request.params.identifier, request.params.ban), BAN_LIFTED),
  );
}

const BLOCKED_SERVER_SCHEMA = recordSchema<BlockedServer>({
  id: { type: 'integer' },
  address: { type: 'string', description: 'lower case, as the game hashes it' },
  sha1: { type: 'string', description: 'what sessionserver/blockedservers answers for it' },
  created: { type: 'integer', description: 'Unix seconds' },
  by: { type: 'string', description: 'the administrator who blocked it' },
});
const BLOCKED_SERVER_EXAMPLE: BlockedServer = {
  id: 1,
  address: '*.example.com',
  sha1: '8c7122d652cb7be22d1986f1f30b07fd5108d9c0',
  created: 1788220800,
  by: 'Admin',
};
const SERVER_BLOCKED = message('blockedServers.blocked');
const SERVER_UNBLOCKED = message('blockedServers.unblocked');

export function blockedServerRoutes(fastify: FastifyInstance, blocked: BlockedServers) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/admin/blocked-servers',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'The game server addresses the game refuses to join, the newest first',
        tags: adminTags,
        response: { 200: envelopeSchema({ type: 'array', items: BLOCKED_SERVER_SCHEMA }, ok([BLOCKED_SERVER_EXAMPLE])) },
      },
    },
    async () => ok(await blocked.list()),
  );
  app.post(
    '/api/admin/blocked-servers',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Block a game server: a host name, *.example.com, an IP address or a prefix such as 192.168.* (audited)',
        tags: adminTags,
        body: objectSchema(['address'], { address: { type: 'string', maxLength: 300 } }, { address: '*.example.com' }),
        response: {
          201: envelopeSchema(BLOCKED_SERVER_SCHEMA, ok(BLOCKED_SERVER_EXAMPLE, SERVER_BLOCKED)),
          ...errorResponses(400, 409),
        },
      },
    },
    async (request, reply) => {
      const server = await blocked.add(callerOf(request), request.body.address);
      return reply.code(201).send(ok(server, SERVER_BLOCKED));
    },
  );
  app.delete(
    '/api/admin/blocked-servers/:id',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Unblock a game server (audited)',
        tags: adminTags,
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } },
        response: { 200: envelopeSchema(BLOCKED_SERVER_SCHEMA, ok(BLOCKED_SERVER_EXAMPLE, SERVER_UNBLOCKED)), ...errorResponses(404) },
      },
    },
    async (request) => ok(await blocked.remove(callerOf(request), request.params.id), SERVER_UNBLOCKED),
  );
}

/** What the game reads (only with GAME_SERVICES): one SHA-1 a line, text/plain, as Mojang's session server. */
export function blockedServersGameRoute(app: FastifyInstance, blocked: BlockedServers) {
  app.get(
    `${API_ROOT_PATH}sessionserver/blockedservers`,
    {
      schema: {
        summary: 'The SHA-1 hashes of the blocked game servers, one a line (the game refuses to join them)',
        tags: gameTags,
        response: {
          200: { description: 'SHA-1 hashes, hexadecimal, one a line', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(await blocked.hashes()),
  );
}

const BLOCKED_PLAYER_SCHEMA = recordSchema<BlockedPlayer>({ uuid: { type: 'string' }, name: { type: 'string' } });
const BLOCKED_PLAYER_EXAMPLE: BlockedPlayer = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' };
const PLAYER_BLOCKED = message('blocks.blocked');
const PLAYER_UNBLOCKED = message('blocks.unblocked');
const homeTags = ['home'];

export function playerBlockRoutes(fastify: FastifyInstance, blocks: PlayerBlocks) {
  const app = withSchemaTypes(fastify);
  app.get(
    '/api/home/blocks',
    {
      config: { access: 'player' },
      schema: {
        summary: 'The players you blocked (the game hides their chat)',
        tags: homeTags,
        response: { 200: envelopeSchema({ type: 'array', items: BLOCKED_PLAYER_SCHEMA }, ok([BLOCKED_PLAYER_EXAMPLE])) },
      },
    },
    async (request) => ok(await blocks.list(callerOf(request).user.id)),
  );
  app.post(
    '/api/home/blocks',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Block a player by name',
        tags: homeTags,
        body: objectSchema(['name'], { name: { type: 'string', maxLength: 64 } }, { name: 'Notch' }),
        response: {
          201: envelopeSchema(BLOCKED_PLAYER_SCHEMA, ok(BLOCKED_PLAYER_EXAMPLE, PLAYER_BLOCKED)),
          ...errorResponses(400, 404, 409),
        },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await blocks.block(callerOf(request), request.body.name), PLAYER_BLOCKED)),
  );
  app.delete(
    '/api/home/blocks/:uuid',
    {
      config: { access: 'player' },
      schema: {
        summary: 'Unblock a player',
        tags: homeTags,
        params: { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } },
        response: { 200: envelopeSchema({ type: 'object' }, ok({}, PLAYER_UNBLOCKED)), ...errorResponses(404) },
      },
    },
    async (request) => {
      await blocks.unblock(callerOf(request), request.params.uuid);
      return ok({}, PLAYER_UNBLOCKED);
    },
  );
}

/** GET privacy/blocklist (only with GAME_SERVICES): the players the token's account blocked, as authlib reads them. */
export function blocklistGameRoute(fastify: FastifyInstance, blocks: PlayerBlocks) {
  const app = withSchemaTypes(fastify);
  app.get(
    `${API_ROOT_PATH}minecraftservices/privacy/blocklist`,
    {
      config: { access: 'game' },
      schema: {
        summary: 'The players this player blocked on the profile page (the game hides their chat)',
        tags: gameTags,
        response: {
          200: {
            ...recordSchema<{ blockedProfiles: string[] }>({ blockedProfiles: { type: 'array', items: { type: 'string' } } }),
            examples: [{ blockedProfiles: ['069a79f444e94726a5befca90e38aaf5'] }],
          },
          ...yggdrasilErrors(401),
        },
      },
    },
    async (request) => ({
      blockedProfiles: (await blocks.list(callerOf(request).user.id)).map((player) => player.uuid.replace(/-/g, '')),
    }),
  );
}
