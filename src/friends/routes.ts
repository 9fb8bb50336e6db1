// The friends routes (contract section 25, only with FRIENDS=true): the game's, under {root}/minecraftservices/ with
// both spellings (authlib-injector and Mojang: friends, presence; Loki: player/friends, player/presence), answered
// with game tokens in Mojang's services shape; and the profile page's, under /api/home/friends in the envelope, so
// that a player without 26.2 sees and answers requests too.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, type Caller } from '../accounts/authenticate.ts';
import { envelopeSchema, errorResponses, message, ok, useErrorShape, type ErrorBody } from '../http/envelope.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';
import { objectSchema, withSchemaTypes } from '../http/schema-types.ts';
import { SERVICES_ERROR_SCHEMA, SERVICES_ROOT, ServicesError, servicesErrorBody, servicesErrors } from '../mojang/errors.ts';
import type { FriendLists, FriendProfile, Friends, FriendTarget, OwnProfile } from './friends.ts';
import { gameInstant, presenceSessionId, type PresenceEntry, type PresenceStore } from './presence.ts';
import { PRESENCE_STATUSES, type PresenceStatus, type WebFriends } from './shapes.ts';

const gameTags = ['game login (Yggdrasil)'];
const homeTags = ['home'];
const dashless = (uuid: string) => uuid.replace(/-/g, '');

/** The game's list (authlib's FriendData of FriendDto): UUIDs without dashes. */
export interface GameFriendList {
  friends: { profileId: string; name: string }[];
  incomingRequests: { profileId: string; name: string }[];
  outgoingRequests: { profileId: string; name: string }[];
}

const gameList = (lists: FriendLists): GameFriendList => {
  const dto = (profile: FriendProfile) => ({ profileId: dashless(profile.uuid), name: profile.name });
  return { friends: lists.friends.map(dto), incomingRequests: lists.incoming.map(dto), outgoingRequests: lists.outgoing.map(dto) };
};

/** The friends part of the game's services: lists, requests and presence, for one profile. */
export class FriendsService {
  constructor(
    readonly friends: Friends,
    private readonly presence: PresenceStore,
    private readonly now: () => number,
  ) {}

  /** What the game sent (OFFLINE clears it), then the presence of the profile's accepted friends. */
  async updatePresence(caller: Caller, profile: OwnProfile, status: PresenceStatus): Promise<{ presence: PresenceEntry[] }> {
    if (status === 'OFFLINE') await this.presence.clear(profile.uuid);
    else
      await this.presence.set(profile.uuid, {
        profileId: dashless(profile.uuid),
        pmid: presenceSessionId(caller.session.kind, caller.session.id),
        status,
        lastUpdated: gameInstant(this.now()),
      });
    return { presence: await this.friendsPresence(profile) };
  }

  /** The live presence of the profile's accepted friends, and no one else's. */
  async friendsPresence(profile: OwnProfile): Promise<PresenceEntry[]> {
    const friends = await this.friends.friendUuids(profile);
    return (await this.presence.get(friends)).filter((entry): entry is PresenceEntry => entry !== null);
  }

  /** The web's view of one profile: its lists, each friend with what they are doing (null: no presence). */
  async webView(profile: OwnProfile): Promise<WebFriends> {
    const lists = await this.friends.lists(profile);
    const presence = await this.presence.get(lists.friends.map((friend) => friend.uuid));
    return {
      uuid: profile.uuid,
      name: profile.name,
      friends: lists.friends.map((friend, index) => ({ ...friend, status: presence[index]?.status ?? null })),
      incoming: lists.incoming,
      outgoing: lists.outgoing,
    };
  }
}

/** A strong ETag of an answer's JSON: the same on every instance for the same list. */
const etagOf = (body: unknown) => `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;

/** Answers 304 without a body when the client's If-None-Match names this answer's ETag; else the body with it. */
function withEtag(request: FastifyRequest, reply: FastifyReply, body: unknown) {
  const etag = etagOf(body);
  reply.header('etag', etag);
  const sent = request.headers['if-none-match'];
  const tags = (sent ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (tags.includes(etag) || tags.includes('*')) return reply.code(304).send();
  return body;
}

/** Mojang's services shape; a body the schema refuses is the game's INVALID_JSON (what Mojang's Spring answers). */
const friendsErrorBody: ErrorBody = (status, text, error, path) => {
  if (status === 400 && !(error instanceof ServicesError))
    return servicesErrorBody(status, text, new ServicesError(400, 'INVALID_JSON', text), path);
  return servicesErrorBody(status, text, error, path);
};

const FRIEND_DTO = recordSchema<GameFriendList['friends'][number]>({
  profileId: { type: 'string', description: 'UUID without dashes' },
  name: { type: 'string' },
});
const GAME_LIST_SCHEMA = recordSchema<GameFriendList>({
  friends: { type: 'array', items: FRIEND_DTO },
  incomingRequests: { type: 'array', items: FRIEND_DTO },
  outgoingRequests: { type: 'array', items: FRIEND_DTO },
});
const GAME_LIST_EXAMPLE: GameFriendList = {
  friends: [{ profileId: '853c80ef3c3749fdaa49938b674adae6', name: 'jeb_' }],
  incomingRequests: [{ profileId: '069a79f444e94726a5befca90e38aaf5', name: 'Notch' }],
  outgoingRequests: [],
};
const PRESENCE_ENTRY_SCHEMA = recordSchema<PresenceEntry>({
  profileId: { type: 'string', description: 'UUID without dashes' },
  pmid: { type: 'string' },
  status: { type: 'string', enum: [...PRESENCE_STATUSES] },
  lastUpdated: { type: 'string', description: 'ISO 8601 instant' },
});
const PRESENCE_SCHEMA = {
  ...recordSchema<{ presence: PresenceEntry[] }>({ presence: { type: 'array', items: PRESENCE_ENTRY_SCHEMA } }),
  examples: [
    {
      presence: [
        {
          profileId: '853c80ef3c3749fdaa49938b674adae6',
          pmid: '5a1e0c3b7d2f4e8a9b6c1d0e2f3a4b5c',
          status: 'PLAYING_SERVER',
          lastUpdated: '2026-09-01T12:00:00Z',
        },
      ],
    },
  ],
};
const NOT_MODIFIED = { 304: { description: 'Unchanged since the ETag of If-None-Match (no body)', type: 'null' } } as const;

export function friendsGameRoutes(fastify: FastifyInstance, service: FriendsService) {
  const app = withSchemaTypes(fastify);
  const game = { access: 'game' } as const;
  /** The token's own profile; a token bound to none (or to a profile gone) has no friends. */
  const profileOf = async (caller: Caller) => {
    const profile = caller.profile && (await service.friends.ownProfile(caller, caller.profile.uuid));
    if (!profile) throw new ServicesError(403, 'FORBIDDEN', 'This access token is bound to no profile');
    return profile;
  };
  // authlib-injector (and Mojang) spell them friends and presence; Loki player/friends and player/presence.
  for (const spelling of ['', 'player/']) {
    const friendsPath = `${SERVICES_ROOT}${spelling}friends`;
    const presencePath = `${SERVICES_ROOT}${spelling}presence`;
    useErrorShape(app, friendsPath, friendsErrorBody, SERVICES_ERROR_SCHEMA);
    useErrorShape(app, presencePath, friendsErrorBody, SERVICES_ERROR_SCHEMA);
    app.get(
      friendsPath,
      {
        config: game,
        schema: {
          summary:
            "The token's profile's friends, the requests it received and those it sent (Minecraft 26.2+); 304 with If-None-Match when unchanged",
          tags: gameTags,
          response: { 200: { ...GAME_LIST_SCHEMA, examples: [GAME_LIST_EXAMPLE] }, ...NOT_MODIFIED, ...servicesErrors(401, 403) },
        },
      },
      async (request, reply) => {
        const profile = await profileOf(callerOf(request));
        return withEtag(request, reply, gameList(await service.friends.lists(profile)));
      },
    );
    app.put(
      friendsPath,
      {
        config: game,
        schema: {
          summary:
            'ADD sends a friend request (by profileId or name) or accepts the one received; REMOVE ends a friendship or declines or takes back a request',
          tags: gameTags,
          body: objectSchema(
            ['updateType'],
            {
              updateType: { type: 'string', enum: ['ADD', 'REMOVE'] },
              profileId: { type: 'string', maxLength: 64 },
              name: { type: 'string', maxLength: 64 },
            },
            { name: 'Dinnerbone', updateType: 'ADD' },
          ),
          response: { 200: { ...GAME_LIST_SCHEMA, examples: [GAME_LIST_EXAMPLE] }, ...servicesErrors(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const profile = await profileOf(caller);
        const { updateType, profileId, name } = request.body;
        const target: FriendTarget | null = profileId !== undefined ? { profileId } : name !== undefined ? { name } : null;
        if (!target) throw new ServicesError(400, 'UNKNOWN_PROFILE', 'Name a profile: profileId or name', { status: 'UNKNOWN_PROFILE' });
        const lists =
          updateType === 'ADD' ? await service.friends.add(caller, profile, target) : await service.friends.remove(caller, profile, target);
        const body = gameList(lists);
        reply.header('etag', etagOf(body));
        return body;
      },
    );
    app.post(
      presencePath,
      {
        config: game,
        schema: {
          summary:
            "Tells the profile's friends what it is doing (kept 10 minutes; OFFLINE clears it) and answers the presence of its accepted friends",
          tags: gameTags,
          body: objectSchema(
            ['status'],
            { status: { type: 'string', enum: [...PRESENCE_STATUSES] }, joinInfo: { type: ['object', 'null'] } },
            { status: 'ONLINE' },
          ),
          response: { 200: PRESENCE_SCHEMA, ...NOT_MODIFIED, ...servicesErrors(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const profile = await profileOf(caller);
        return withEtag(request, reply, await service.updatePresence(caller, profile, request.body.status));
      },
    );
  }
}

const PROFILE_SCHEMA = recordSchema<FriendProfile>({ uuid: { type: 'string' }, name: { type: 'string' } });
const WEB_FRIENDS_SCHEMA = recordSchema<WebFriends>({
  uuid: { type: 'string' },
  name: { type: 'string' },
  friends: {
    type: 'array',
    items: recordSchema<WebFriends['friends'][number]>({
      uuid: { type: 'string' },
      name: { type: 'string' },
      status: { type: ['string', 'null'], enum: [...PRESENCE_STATUSES, null], description: 'what the friend is doing; null: not online' },
    }),
  },
  incoming: { type: 'array', items: PROFILE_SCHEMA },
  outgoing: { type: 'array', items: PROFILE_SCHEMA },
});
const WEB_FRIENDS_EXAMPLE: WebFriends = {
  uuid: '3f1d2c4b-5a69-4e7d-8c2b-1a0f9e8d7c6b',
  name: 'Steve',
  friends: [{ uuid: '853c80ef-3c37-49fd-aa49-938b674adae6', name: 'jeb_', status: 'PLAYING_SERVER' }],
  incoming: [{ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' }],
  outgoing: [],
};
const REQUEST_SENT = message('friends.changed');
const PROFILE_PARAM = { type: 'string', maxLength: 64, description: 'one of your profiles (UUID); without it, the first' } as const;

export function friendsHomeRoutes(fastify: FastifyInstance, service: FriendsService) {
  const app = withSchemaTypes(fastify);
  const player = { access: 'player' } as const;
  const chosenProfile = async (caller: Caller, uuid: string | undefined) => {
    const profile = uuid ? await service.friends.ownProfile(caller, uuid) : (await service.friends.ownProfiles(caller))[0];
    if (!profile) throw new ServicesError(404, 'NOT_FOUND', message('friends.notYourProfile'));
    return profile;
  };
  app.get(
    '/api/home/friends',
    {
      config: player,
      schema: {
        summary: 'Each of your profiles with its friends (and what they are doing), the requests it received and those it sent',
        tags: homeTags,
        response: { 200: envelopeSchema({ type: 'array', items: WEB_FRIENDS_SCHEMA }, ok([WEB_FRIENDS_EXAMPLE])) },
      },
    },
    async (request) => {
      const profiles = await service.friends.ownProfiles(callerOf(request));
      return ok(await Promise.all(profiles.map((profile) => service.webView(profile))));
    },
  );
  app.post(
    '/api/home/friends',
    {
      config: player,
      schema: {
        summary: 'Send a friend request by name (or profile UUID), or accept the one that player sent',
        tags: homeTags,
        body: objectSchema(
          [],
          { name: { type: 'string', maxLength: 64 }, uuid: { type: 'string', maxLength: 64 }, profile: PROFILE_PARAM },
          { name: 'Notch', profile: '3f1d2c4b-5a69-4e7d-8c2b-1a0f9e8d7c6b' },
        ),
        response: { 200: envelopeSchema(WEB_FRIENDS_SCHEMA, ok(WEB_FRIENDS_EXAMPLE, REQUEST_SENT)), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const profile = await chosenProfile(caller, request.body.profile);
      const { name, uuid } = request.body;
      const target: FriendTarget = uuid !== undefined ? { profileId: uuid } : { name: name ?? '' };
      await service.friends.add(caller, profile, target);
      return ok(await service.webView(profile), REQUEST_SENT);
    },
  );
  app.delete(
    '/api/home/friends/:uuid',
    {
      config: player,
      schema: {
        summary: 'Remove a friend, decline their request or take back yours',
        tags: homeTags,
        params: { type: 'object', required: ['uuid'], properties: { uuid: { type: 'string', maxLength: 64 } } },
        querystring: { type: 'object', properties: { profile: PROFILE_PARAM } },
        response: { 200: envelopeSchema(WEB_FRIENDS_SCHEMA, ok(WEB_FRIENDS_EXAMPLE, REQUEST_SENT)), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const profile = await chosenProfile(caller, request.query.profile);
      await service.friends.remove(caller, profile, { profileId: request.params.uuid });
      return ok(await service.webView(profile), REQUEST_SENT);
    },
  );
}
