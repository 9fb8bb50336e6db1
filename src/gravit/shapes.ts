// The answers of the GravitLauncher API (contract section 10; the records of HttpMethodExample's
// MyHttpAuthCoreProvider, read by the LaunchServer with Gson): types, schemas and examples. Byte fields are URL-safe
// base64, as GravitLauncher's Gson adapter writes and reads them. No `userHardware` anywhere: Gson cannot build that
// interface-typed field and fails the whole answer.
import { PLAYER_ID, PLAYER_UUID } from '../http/shapes/example-story.ts';
import { LAUNCHER_DOCUMENT_EXAMPLE, LAUNCHER_DOCUMENT_SCHEMA, type LauncherDocument } from '../http/shapes/launcher-document.ts';
import { recordSchema } from '../http/shapes/record-schema.ts';

export interface GravitUser {
  username: string;
  /** Lower case with dashes: the LaunchServer parses it with UUID.fromString. */
  uuid: string;
  /** Always empty: the LaunchServer matches entries as glob patterns, and none may reach launchserver.*. */
  permissions: string[];
  /** The account's level name: banned, player, moderator, admin or owner. */
  roles: string[];
  assets: LauncherDocument;
  banned: boolean;
}

export interface UserSession {
  /** The launcher session's id; it stays the same across refreshes. */
  id: string;
  accessToken: string;
  /** Left out by getbytoken: it is stored hashed. */
  refreshToken?: string;
  /** Whole seconds until the access token expires. */
  expire: number;
  user: GravitUser;
}

/** HardwareReportRequest.HardwareInfo; text fields are null when the launcher did not report them. */
export interface HardwareInfo {
  bitness: number;
  totalMemory: number;
  logicalProcessors: number;
  physicalProcessors: number;
  processorMaxFreq: number;
  battery: boolean;
  hwDiskId: string | null;
  baseboardSerialNumber: string | null;
  graphicCard: string | null;
  /** The display's EDID, URL-safe base64. */
  displayId: string | null;
}

export interface UserHardware {
  /** The `hwids` row id, as text (GravitLauncher's ids are strings). */
  id: string;
  /** URL-safe base64 of the launcher's public key. */
  publicKey: string | null;
  hardwareInfo: HardwareInfo;
  banned: boolean;
}

/** A hardware record in the admin list: with the players who used it. */
export interface HardwareRecord extends UserHardware {
  users: { id: number; username: string; uuid: string }[];
}

export const GRAVIT_USER_SCHEMA = recordSchema<GravitUser>({
  username: { type: 'string' },
  uuid: { type: 'string' },
  permissions: { type: 'array', items: { type: 'string' } },
  roles: { type: 'array', items: { type: 'string' } },
  assets: LAUNCHER_DOCUMENT_SCHEMA,
  banned: { type: 'boolean' },
});

export const GRAVIT_USER_EXAMPLE: GravitUser = {
  username: 'Steve',
  uuid: PLAYER_UUID,
  permissions: [],
  roles: ['player'],
  assets: LAUNCHER_DOCUMENT_EXAMPLE,
  banned: false,
};

export const USER_SESSION_SCHEMA = recordSchema<UserSession>(
  {
    id: { type: 'string' },
    accessToken: { type: 'string' },
    refreshToken: { type: 'string' },
    expire: { type: 'integer', description: 'whole seconds until the access token expires' },
    user: GRAVIT_USER_SCHEMA,
  },
  { refreshToken: true },
);

export const USER_SESSION_EXAMPLE: UserSession = {
  id: '42',
  accessToken: 'kX3v9Qm2bWc7Zt1yHf8sLp4Rn6Ja0DeGu5Ti2OwVqBk',
  refreshToken: 'Ms7Lq2Xc9Vb4Nz1Wd6Kf3Hj8Gr0Tp5Ye2Ua7Io4EsCx',
  expire: 3600,
  user: GRAVIT_USER_EXAMPLE,
};

const nullableText = { type: ['string', 'null'] } as const;

export const HARDWARE_INFO_SCHEMA = recordSchema<HardwareInfo>({
  bitness: { type: 'integer' },
  totalMemory: { type: 'integer' },
  logicalProcessors: { type: 'integer' },
  physicalProcessors: { type: 'integer' },
  processorMaxFreq: { type: 'integer' },
  battery: { type: 'boolean' },
  hwDiskId: nullableText,
  baseboardSerialNumber: nullableText,
  graphicCard: nullableText,
  displayId: nullableText,
});

const userHardwareFields = {
  id: { type: 'string' },
  publicKey: nullableText,
  hardwareInfo: HARDWARE_INFO_SCHEMA,
  banned: { type: 'boolean' },
};

export const USER_HARDWARE_SCHEMA = recordSchema<UserHardware>(userHardwareFields);

export const HARDWARE_INFO_EXAMPLE: HardwareInfo = {
  bitness: 64,
  totalMemory: 17_179_869_184,
  logicalProcessors: 8,
  physicalProcessors: 4,
  processorMaxFreq: 3_600_000_000,
  battery: false,
  hwDiskId: 'S4EVNF0M812345',
  baseboardSerialNumber: 'PM1LB0A8J1234',
  graphicCard: 'NVIDIA GeForce RTX 3060',
  displayId: 'AP___________wAQrM_wTEZFMDIxAQOANR54',
};

export const USER_HARDWARE_EXAMPLE: UserHardware = {
  id: '12',
  publicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEz4Kp1',
  hardwareInfo: HARDWARE_INFO_EXAMPLE,
  banned: false,
};

export const HARDWARE_RECORD_SCHEMA = recordSchema<HardwareRecord>({
  ...userHardwareFields,
  users: {
    type: 'array',
    items: recordSchema<HardwareRecord['users'][number]>({
      id: { type: 'integer' },
      username: { type: 'string' },
      uuid: { type: 'string' },
    }),
  },
});

export const HARDWARE_RECORD_EXAMPLE: HardwareRecord = {
  ...USER_HARDWARE_EXAMPLE,
  users: [{ id: PLAYER_ID, username: 'Steve', uuid: PLAYER_UUID }],
};

/** Whether the console has hardware to show (GET /api/admin/hardware/status): its tab is hidden when neither. */
export interface HardwareStatus {
  /** Whether GRAVIT_TOKEN is set, so a LaunchServer reports hardware through the launcher API. */
  launcher_api: boolean;
  /** Hardware ids recorded, by the launcher API or a LaunchServer's sql core (which needs no GRAVIT_TOKEN). */
  reported: number;
}

export const HARDWARE_STATUS_SCHEMA = recordSchema<HardwareStatus>({ launcher_api: { type: 'boolean' }, reported: { type: 'integer' } });

export const HARDWARE_STATUS_EXAMPLE: HardwareStatus = { launcher_api: true, reported: 12 };
