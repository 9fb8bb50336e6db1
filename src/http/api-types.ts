// The shapes the API answers with (interface.md sections 2 and 4), in one place: the services build them and the
// browser app (web/) reads them. Types only, no imports, so both sides can include this file.

export interface SkinRecord {
  uuid: string;
  name: string;
  /** The owner's user id. */
  owner: number;
  slim: boolean;
  hd: boolean;
  /** UUID of the cape shown with this skin, or "". */
  cloak_id: string;
  digest: string;
  url: string;
  selected?: boolean;
}

export interface CapeRecord {
  uuid: string;
  name: string;
  /** User ids of the players who may wear it. */
  owners: number[];
  digest: string;
  url: string;
  selected?: boolean;
}

export interface UserDetail {
  Username: string;
  Uuid: string;
  Mail: string;
  Mail_verify: number;
  /** Numeric id of the selected cape (interface.md types it as an integer); 0 when none. */
  Selected_Cape: number;
  /** UUID of the selected skin; "" when none. */
  Selected_Skin: string;
  PermLvl: number;
  Capes: { Id: string; Name: string }[];
  Skins: { uuid: string; name: string; cloak_id: string }[];
  Discord_integration: boolean;
  Discord: { userid: string; username: string; avatar: string };
  Mail_verification: number;
}

/** The User record of interface.md 2.3. `password` is the stored argon2id hash, as contract section 2 says. */
export interface UserRecord {
  id: number;
  username: string;
  dsid: string;
  mail: string;
  mail_verify: number;
  uuid: string;
  password: string;
  perms: number;
  accessToken: string | null;
  serverID: string | null;
  hwidId: string | null;
}

export interface AuditEntry {
  id: number;
  iss: string;
  action: string;
  /** The user the entry is about; 0 when it is about no single user. */
  for: number;
  /** Unix seconds. */
  time: number;
  details: Record<string, unknown> | null;
}
