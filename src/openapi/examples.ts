// Example values for the OpenAPI document, one consistent story (player Steve, id 7, one skin, one cape), typed
// by the shapes the services return so that they cannot drift from them.
import type { AuditEntry, CapeRecord, SkinRecord, UserDetail, UserRecord } from '../http/api-types.ts';
import type { LauncherDocument } from '../images/service.ts';

export const BASE = 'http://localhost:8080';
export const PLAYER_UUID = '3f1d2c4b-5a69-4e7d-8c2b-1a0f9e8d7c6b';
const SKIN_UUID = 'c2a5e0f4-7b1d-4c38-9e6a-2d4f8b1c0e97';
const CAPE_UUID = '8e4b1f2a-3c5d-4e6f-a7b8-9c0d1e2f3a4b';
const SKIN_DIGEST = '5b1f0c2e8d7a4f3b9e6c1a0d2f4b8e7c3a9d5f1b0e2c4a6d8f0b1c3e5a7d9f2b';
const CAPE_DIGEST = 'a9e3c1f5b7d2e4a6c8f0b2d4e6a8c0f2b4d6e8a0c2f4b6d8e0a2c4f6b8d0e2a4';

export const SKIN: SkinRecord = {
  uuid: SKIN_UUID,
  name: 'Summer',
  owner: 7,
  slim: true,
  hd: false,
  cloak_id: CAPE_UUID,
  digest: SKIN_DIGEST,
  url: `${BASE}/api/skin/cloak/${SKIN_UUID}`,
};

export const CAPE: CapeRecord = {
  uuid: CAPE_UUID,
  name: 'Founder',
  owners: [7],
  digest: CAPE_DIGEST,
  url: `${BASE}/api/skin/standart/cape/${CAPE_UUID}`,
};

export const USER_DETAIL: UserDetail = {
  Username: 'Steve',
  Uuid: PLAYER_UUID,
  Mail: 'steve@example.org',
  Mail_verify: 1,
  Selected_Cape: 3,
  Selected_Skin: SKIN_UUID,
  PermLvl: 0,
  Capes: [{ Id: CAPE_UUID, Name: 'Founder' }],
  Skins: [{ uuid: SKIN_UUID, name: 'Summer', cloak_id: CAPE_UUID }],
  Discord_integration: false,
  Discord: { userid: '', username: '', avatar: '' },
  Mail_verification: 1,
};

export const USER_RECORD: UserRecord = {
  id: 7,
  username: 'Steve',
  dsid: '',
  mail: 'steve@example.org',
  mail_verify: 1,
  uuid: PLAYER_UUID,
  password: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
  perms: 0,
  accessToken: null,
  serverID: null,
  hwidId: null,
};

export const AUDIT_ENTRY: AuditEntry = {
  id: 42,
  iss: 'Owner',
  action: 'role.grant',
  for: 7,
  time: 1767225600,
  details: { role_level: 1, expired_at: 1769904000 },
};

export const LAUNCHER_DOCUMENT: LauncherDocument = {
  SKIN: { url: `${BASE}/api/skin/cloak/${PLAYER_UUID}`, digest: SKIN_DIGEST, metadata: { model: 'slim' } },
  CAPE: { url: `${BASE}/api/skin/standart/cape/${PLAYER_UUID}`, digest: CAPE_DIGEST },
};
