// The answers of the Yggdrasil API (authlib-injector's specification, Mojang's shapes): types, schemas and examples.
import { recordSchema } from '../http/shapes/record-schema.ts';
import { nameBasedUuid } from '../minecraft/offline-uuid.ts';

/** Ids in this API are UUIDs without dashes. */
export const unsignedUuid = (uuid: string) => uuid.replace(/-/g, '');

/**
 * A user (the account) has an id of its own in this API, distinct from its profile's: a name-based UUID of the user
 * id, stable and revealing nothing.
 */
export const userUuid = (userId: number) => unsignedUuid(nameBasedUuid(`skinservice-user:${userId}`));

export interface ProfileRef {
  id: string;
  name: string;
}

/** A game profile as a reference ({id, name}): the Yggdrasil API's, Mojang's look-ups' and Yggdrasil Connect's. */
export const profileRef = (profile: { uuid: string; name: string }): ProfileRef => ({ id: unsignedUuid(profile.uuid), name: profile.name });

export interface ProfileProperty {
  name: string;
  value: string;
  signature?: string;
}

export interface GameProfile extends ProfileRef {
  properties: ProfileProperty[];
  /**
   * What the player must do before playing online (contract section 24): always present, empty when nothing; each
   * item an object with both `action` and `updateType` (authlib before and after 26.2), never a plain string.
   */
  profileActions: ProfileAction[];
}

/** A texture of the wardrobe as Mojang's services list it: ACTIVE is the one the profile wears. */
export type TextureState = 'ACTIVE' | 'INACTIVE';

/** The game profile as Mojang's services API shows it (minecraft/profile): the account's wardrobe, the worn ones ACTIVE. */
export interface MinecraftProfile {
  id: string;
  name: string;
  skins: { id: string; state: TextureState; url: string; textureKey: string; variant: 'CLASSIC' | 'SLIM' }[];
  capes: { id: string; state: TextureState; url: string; alias: string }[];
  profileActions: Record<string, never>;
}

export type ProfileActionType = 'FORCED_NAME_CHANGE' | 'USING_BANNED_SKIN';
export interface ProfileAction {
  action: ProfileActionType;
  updateType: ProfileActionType;
}

export interface GameUser {
  id: string;
  properties: { name: string; value: string }[];
}

export interface AuthenticateAnswer {
  accessToken: string;
  clientToken: string;
  availableProfiles: ProfileRef[];
  /** Absent (not null) while the token is bound to no profile: a launcher reads a present key as a profile. */
  selectedProfile?: ProfileRef;
  user?: GameUser;
}

export type RefreshAnswer = Omit<AuthenticateAnswer, 'availableProfiles'>;

export interface PlayerCertificates {
  keyPair: { privateKey: string; publicKey: string };
  publicKeySignature: string;
  publicKeySignatureV2: string;
  expiresAt: string;
  refreshedAfter: string;
}

const PROFILE_ID = '3f1d2c4b5a694e7d8c2b1a0f9e8d7c6b';
export const PROFILE_REF_EXAMPLE: ProfileRef = { id: PROFILE_ID, name: 'Steve' };

export const PROFILE_REF_SCHEMA = recordSchema<ProfileRef>({ id: { type: 'string' }, name: { type: 'string' } });

const PROPERTY_SCHEMA = recordSchema<ProfileProperty>(
  { name: { type: 'string' }, value: { type: 'string' }, signature: { type: 'string' } },
  { signature: true },
);

export const GAME_PROFILE_SCHEMA = recordSchema<GameProfile>({
  id: { type: 'string' },
  name: { type: 'string' },
  properties: { type: 'array', items: PROPERTY_SCHEMA },
  profileActions: {
    type: 'array',
    items: recordSchema<ProfileAction>({
      action: { type: 'string', enum: ['FORCED_NAME_CHANGE', 'USING_BANNED_SKIN'] },
      updateType: { type: 'string', enum: ['FORCED_NAME_CHANGE', 'USING_BANNED_SKIN'] },
    }),
  },
});

export const GAME_PROFILE_EXAMPLE: GameProfile = {
  ...PROFILE_REF_EXAMPLE,
  properties: [
    { name: 'textures', value: 'eyJ0aW1lc3RhbXAiOjE3Njc...' },
    { name: 'uploadableTextures', value: 'skin' },
  ],
  profileActions: [],
};

const GAME_USER_SCHEMA = recordSchema<GameUser>({
  id: { type: 'string' },
  properties: {
    type: 'array',
    items: recordSchema<GameUser['properties'][number]>({ name: { type: 'string' }, value: { type: 'string' } }),
  },
});

export const AUTHENTICATE_SCHEMA = recordSchema<AuthenticateAnswer>(
  {
    accessToken: { type: 'string' },
    clientToken: { type: 'string' },
    availableProfiles: { type: 'array', items: PROFILE_REF_SCHEMA },
    selectedProfile: PROFILE_REF_SCHEMA,
    user: GAME_USER_SCHEMA,
  },
  { user: true, selectedProfile: true },
);

export const AUTHENTICATE_EXAMPLE: AuthenticateAnswer = {
  accessToken: '9f86d081884c7d659a2feaa0c55ad015',
  clientToken: 'c5a1e8a9b4e14c2e9b0a1f2d3c4b5a69',
  availableProfiles: [PROFILE_REF_EXAMPLE],
  selectedProfile: PROFILE_REF_EXAMPLE,
};

export const REFRESH_SCHEMA = recordSchema<RefreshAnswer>(
  {
    accessToken: { type: 'string' },
    clientToken: { type: 'string' },
    selectedProfile: PROFILE_REF_SCHEMA,
    user: GAME_USER_SCHEMA,
  },
  { user: true, selectedProfile: true },
);

export const PLAYER_CERTIFICATES_SCHEMA = recordSchema<PlayerCertificates>({
  keyPair: recordSchema<PlayerCertificates['keyPair']>({ privateKey: { type: 'string' }, publicKey: { type: 'string' } }),
  publicKeySignature: { type: 'string' },
  publicKeySignatureV2: { type: 'string' },
  expiresAt: { type: 'string' },
  refreshedAfter: { type: 'string' },
});

export const PLAYER_CERTIFICATES_EXAMPLE: PlayerCertificates = {
  keyPair: {
    privateKey: '-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\n-----END RSA PRIVATE KEY-----\n',
    publicKey: '-----BEGIN RSA PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A...\n-----END RSA PUBLIC KEY-----\n',
  },
  publicKeySignature: 'c2lnbmF0dXJlIHYx...',
  publicKeySignatureV2: 'c2lnbmF0dXJlIHYy...',
  expiresAt: '2026-11-24T12:00:00.000Z',
  refreshedAfter: '2026-11-24T00:00:00.000Z',
};

/** The API metadata (authlib-injector's "API metadata"): feature flags count only as JSON true. */
export interface ApiMetadata {
  meta: {
    serverName: string;
    implementationName: string;
    implementationVersion: string;
    links: { homepage: string; register: string };
    'feature.non_email_login': boolean;
    /** LittleSkin's spelling of non_email_login, which some launchers read before looking for Yggdrasil Connect. */
    'feature.no_email_login': boolean;
    /** Yggdrasil Connect's discovery document; absent while YGGDRASIL_CONNECT=false. */
    'feature.openid_configuration_url'?: string;
    'feature.enable_profile_key': boolean;
    'feature.legacy_skin_api': boolean;
    'feature.no_mojang_namespace': boolean;
    /** GAME_SERVICES: authlib-injector forwards the game's attributes, blocklist and reports (contract section 24). */
    'feature.enable_mojang_anti_features'?: boolean;
  };
  /** Host names (no port) the game accepts texture URLs from. */
  skinDomains: string[];
  /** PEM (SPKI) public key of the service key. */
  signaturePublickey: string;
}

const flag = { type: 'boolean' } as const;

export const META_SCHEMA = {
  ...recordSchema<ApiMetadata>({
    meta: recordSchema<ApiMetadata['meta']>(
      {
        serverName: { type: 'string' },
        implementationName: { type: 'string' },
        implementationVersion: { type: 'string' },
        links: recordSchema<ApiMetadata['meta']['links']>({ homepage: { type: 'string' }, register: { type: 'string' } }),
        'feature.non_email_login': flag,
        'feature.no_email_login': flag,
        'feature.openid_configuration_url': { type: 'string' },
        'feature.enable_profile_key': flag,
        'feature.legacy_skin_api': flag,
        'feature.no_mojang_namespace': flag,
        'feature.enable_mojang_anti_features': flag,
      },
      { 'feature.openid_configuration_url': true, 'feature.enable_mojang_anti_features': true },
    ),
    skinDomains: { type: 'array', items: { type: 'string' } },
    signaturePublickey: { type: 'string' },
  }),
  examples: [
    {
      meta: {
        serverName: 'Skin service',
        implementationName: 'skinservice',
        implementationVersion: '0.1.0',
        links: { homepage: 'http://localhost:8080/', register: 'http://localhost:8080/register' },
        'feature.non_email_login': true,
        'feature.no_email_login': true,
        'feature.openid_configuration_url': 'http://localhost:8080/.well-known/openid-configuration',
        'feature.enable_profile_key': true,
        'feature.legacy_skin_api': true,
        'feature.no_mojang_namespace': true,
        'feature.enable_mojang_anti_features': true,
      },
      skinDomains: ['localhost'],
      signaturePublickey: '-----BEGIN PUBLIC KEY-----\nMIICIjANBgkqhkiG9w0BAQEFAAOCAg8AMIICCgKCAgEA...\n-----END PUBLIC KEY-----\n',
    } satisfies ApiMetadata,
  ],
};

export interface PublicKeys {
  profilePropertyKeys: { publicKey: string }[];
  playerCertificateKeys: { publicKey: string }[];
  /** Empty: no client reads it (contract section 25); listed as Mojang's document lists it. */
  authenticationKeys: { publicKey: string }[];
}

const KEY_LIST = { type: 'array', items: recordSchema<PublicKeys['profilePropertyKeys'][number]>({ publicKey: { type: 'string' } }) };

export const PUBLIC_KEYS_SCHEMA = {
  ...recordSchema<PublicKeys>({ profilePropertyKeys: KEY_LIST, playerCertificateKeys: KEY_LIST, authenticationKeys: KEY_LIST }),
  examples: [
    {
      profilePropertyKeys: [{ publicKey: 'MIICIjANBgkqhkiG9w0B...' }],
      playerCertificateKeys: [{ publicKey: 'MIICIjANBgkqhkiG9w0B...' }],
      authenticationKeys: [],
    },
  ],
};
