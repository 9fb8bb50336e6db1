// The Yggdrasil Connect shapes (contract section 18): a player's grant (GET /api/home/oauth/grants), what the
// consent page shows of a launcher's request, and the clients admins register.
import { recordSchema } from './record-schema.ts';

/**
 * The client a grant or a request is for: `shared` is the built-in client any launcher uses, which the pages name in
 * their own words ("a launcher", in the player's language) rather than by its stored name.
 */
export interface OAuthClientRef {
  id: string;
  name: string;
  shared: boolean;
}

export interface OAuthGrantRecord {
  id: number;
  client: OAuthClientRef;
  scopes: string[];
  /** The profile chosen for Yggdrasil.PlayerProfiles.Select: its id as the game login gives it (32 hex digits). */
  profile: { id: string; name: string } | null;
  /** Unix seconds. */
  created: number;
  /** Unix seconds of the last time the launcher got tokens of it; null before. */
  last_used: number | null;
}

const ref = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: { id: { type: 'string' }, name: { type: 'string' } },
} as const;
const clientRef = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'shared'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, shared: { type: 'boolean' } },
} as const;

export const OAUTH_GRANT_SCHEMA = recordSchema<OAuthGrantRecord>({
  id: { type: 'integer' },
  client: clientRef,
  scopes: { type: 'array', items: { type: 'string' } },
  profile: { ...ref, type: ['object', 'null'] },
  created: { type: 'integer' },
  last_used: { type: ['integer', 'null'] },
});

export const OAUTH_GRANTS_EXAMPLE: OAuthGrantRecord[] = [
  {
    id: 3,
    client: { id: '734ceac4bcb97ce1a0177873be4eeec9', name: 'Launchers', shared: true },
    scopes: ['openid', 'offline_access', 'Yggdrasil.PlayerProfiles.Select', 'Yggdrasil.Server.Join'],
    profile: { id: '8667ba71b85a4004af54457a9734eed7', name: 'Steve' },
    created: 1767225600,
    last_used: 1767312000,
  },
];

/** A launcher's request waiting for the player: what the consent page shows. */
export interface OAuthRequestRecord {
  client: OAuthClientRef;
  scopes: string[];
  /** The account's profiles to choose from when Yggdrasil.PlayerProfiles.Select was asked; [] otherwise. */
  profiles: { id: string; name: string }[];
}

export const OAUTH_REQUEST_SCHEMA = recordSchema<OAuthRequestRecord>({
  client: clientRef,
  scopes: { type: 'array', items: { type: 'string' } },
  profiles: { type: 'array', items: ref },
});

export const OAUTH_REQUEST_EXAMPLE: OAuthRequestRecord = {
  client: { id: '5f0c8d2e9a41b7c3d6e8f1a2b4c6d8e0', name: 'PCL-CE', shared: false },
  scopes: ['openid', 'Yggdrasil.PlayerProfiles.Select', 'Yggdrasil.Server.Join'],
  profiles: [
    { id: '8667ba71b85a4004af54457a9734eed7', name: 'Steve' },
    { id: 'ec561538f3fd461daff5086b22154bce', name: 'Alex' },
  ],
};

/** A client an admin registered (GET/POST /api/admin/oauth/clients); `id` is its OAuth client_id. */
export interface OAuthClientRecord {
  id: string;
  name: string;
  redirect_uris: string[];
  /** A public client sends no secret (PKCE only); a confidential one authenticates with its secret. */
  public: boolean;
  /** Whether it may use the device grant. */
  device: boolean;
}

/** The answer of its registration: a confidential client's secret, shown this once. */
export type NewOAuthClientRecord = OAuthClientRecord & { secret?: string };

const clientFields = {
  id: { type: 'string' },
  name: { type: 'string' },
  redirect_uris: { type: 'array', items: { type: 'string' } },
  public: { type: 'boolean' },
  device: { type: 'boolean' },
} as const;

export const OAUTH_CLIENT_SCHEMA = recordSchema<OAuthClientRecord>(clientFields);
export const NEW_OAUTH_CLIENT_SCHEMA = recordSchema<NewOAuthClientRecord>(
  { ...clientFields, secret: { type: 'string' } },
  { secret: true },
);

export const OAUTH_CLIENT_EXAMPLE: OAuthClientRecord = {
  id: '5f0c8d2e9a41b7c3d6e8f1a2b4c6d8e0',
  name: 'Server website',
  redirect_uris: ['https://play.example.org/oauth/callback'],
  public: false,
  device: false,
};

export const NEW_OAUTH_CLIENT_EXAMPLE: NewOAuthClientRecord = {
  ...OAUTH_CLIENT_EXAMPLE,
  secret: 'q8Zr2Vx0nH4tLw7bKc9mJs1dFg5yPa3eRu6iOo0TQkE',
};
