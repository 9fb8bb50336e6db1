// The one Kysely schema shared by SQLite and PostgreSQL. Times are Unix milliseconds unless named otherwise;
// flags are integers 0/1 because SQLite has no boolean and the API sends them as 0/1 anyway.
import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  /** null until registration step 3. */
  username: string | null;
  /** username lower-cased: usernames are unique without regard to case. */
  username_key: string | null;
  mail: string;
  /** mail lower-cased: mail addresses are unique without regard to case. */
  mail_key: string;
  mail_verify: number;
  /** 1: the user must verify their mail before logging in; an admin may set 0 to exempt them. */
  mail_verification: number;
  password: string;
  /** player UUID, lower case with dashes; null until registration step 3. */
  uuid: string | null;
  /** The UUID offline-mode game servers give the username (offlinePlayerUuid); null until step 3. */
  offline_uuid: string | null;
  perms: number;
  dsid: string | null;
  discord_username: string | null;
  discord_avatar: string | null;
  /** access_token, server_id, hwid_id: a GravitLauncher LaunchServer's `sql` core writes them; the service never does. */
  access_token: string | null;
  server_id: string | null;
  /**
   * An id of `hwids`: bigint on PostgreSQL (the sql core binds a long), text on SQLite (declared so before migration
   * 005, and SQLite cannot change a column's type). Compare it with the id as text: PostgreSQL reads that as bigint.
   */
  hwid_id: number | string | null;
  created_at: number;
  updated_at: number;
  selected_skin_id: number | null;
  selected_cape_id: number | null;
  /** The language of the account's mails: en, ru or zh-CN (contract section 14); 'en' until set. */
  language: Generated<string>;
  /** How many game profiles the account may hold; null: the MAX_PROFILES setting (contract section 16). */
  max_profiles: number | null;
  // Account bans with an end and the chat switch (issue 42, migration 031).
  /** When an account ban (perms -1) ends, Unix ms; null: permanent, or not banned. */
  banned_until: number | null;
  /** 0: an administrator switched the player's online chat off. */
  online_chat: Generated<number>;
  /** Reports and moderation (migration 027): 1 = publications skip LIBRARY_REVIEW. */
  review_exempt: Generated<number>;
}

/**
 * A game profile (player) of an account. The primary one (its uuid = users.uuid) mirrors users.username/uuid/
 * offline_uuid and wears users.selected_skin_id/selected_cape_id; every name, the usernames included, is unique here.
 */
export interface ProfilesTable {
  id: Generated<number>;
  user_id: number;
  /** Lower case with dashes; never changes. */
  uuid: string;
  name: string;
  /** name lower-cased: profile names and usernames share one case-insensitive namespace. */
  name_key: string;
  /** The offline-mode UUID of the current name (offline-mode servers show the skin by it). */
  offline_uuid: string;
  /** The skin and cape a non-primary profile wears; null for the primary one (its choice is the account's). */
  selected_skin_id: number | null;
  selected_cape_id: number | null;
  created_at: number;
  /** null until the first rename. */
  name_changed_at: number | null;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export type CodePurpose = 'verify_mail' | 'reset_password';

export interface MailCodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: CodePurpose;
  /** HMAC-SHA256 of the code under the JWT secret: a leaked table reveals no usable code. */
  code_hash: string;
  /** HMAC-SHA256 of the mailed link's token (128 bits and more, confirms by itself); null for codes mailed before
   * migration 020, whose link carried the typed code. */
  token_hash: string | null;
  /** The address the code was sent to; a code proves ownership of this address only. */
  mail: string;
  /** A registration code's password: the hash of the one given by the first registration of the address (a later
   * registration's code carries none and confirms only with a password chosen then), set on confirming. */
  password_hash: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface RoleGrantsTable {
  id: Generated<number>;
  /** One grant per user: granting again replaces the earlier grant. */
  user_id: number;
  role_level: number;
  /** null: permanent. */
  expires_at: number | null;
  granted_by: number | null;
  granted_at: number;
  /** 1 once the expiry has been written to the audit log. */
  expiry_recorded: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  /** Unix seconds, as the API returns it. */
  time: number;
  /** Acting username, or `system`. */
  iss: string;
  actor_id: number | null;
  action: string;
  target_id: number | null;
  /** JSON text with what changed; never a password or hash. */
  details: string | null;
}

export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: number;
  attempts: number;
  next_attempt_at: number;
  /** A worker that claimed the row holds it until then; a crashed worker's claim lapses. */
  locked_until: number | null;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
  /** The broadcast (mail to all users) this mail belongs to, if any. */
  broadcast_id: number | null;
}

export interface BroadcastsTable {
  id: Generated<number>;
  subject: string;
  message: string;
  created_by: number | null;
  created_at: number;
  /** Recipients are queued in user-id order; every user up to this id has been queued. */
  last_user_id: number;
  queued: number;
  finished_at: number | null;
}

export interface TexturesTable {
  /** SHA-256 (hex) of the canonical PNG: the texture's address. */
  digest: string;
  width: number;
  height: number;
  byte_size: number;
  /** The PNG itself with TEXTURE_STORE=database; null with the file store. */
  data: Buffer | null;
  created_at: number;
}

export interface SkinsTable {
  id: Generated<number>;
  uuid: string;
  user_id: number;
  name: string;
  slim: number;
  hd: number;
  texture_digest: string;
  /** The cape shown with this skin (cloak_id), when the owner has that cape. */
  cape_id: number | null;
  created_at: number;
}

export interface CapesTable {
  id: Generated<number>;
  uuid: string;
  name: string;
  texture_digest: string;
  created_at: number;
  /** null: an admin's cape; else the player who uploaded it to their own wardrobe (USER_CAPES, contract section 19). */
  uploader_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface CapeOwnersTable {
  cape_id: number;
  user_id: number;
  granted_at: number;
}

export interface SigningKeysTable {
  name: string;
  /** PKCS#8 PEM. Only its public half ever leaves the service. */
  private_key: string;
  created_at: number;
}

/** A game profile's chat-signing key pair and the service key's signatures over its public half. */
export interface PlayerCertificatesTable {
  id: Generated<number>;
  user_id: number;
  /** With dashes, as users.uuid. */
  profile_uuid: string;
  /** PKCS#8 DER sealed under TOTP_KEY for this profile (src/crypto/sealed-box.ts). */
  private_key: string;
  /** SPKI DER, base64. */
  public_key: string;
  signature_v1: string;
  signature_v2: string;
  refreshed_after: number;
  expires_at: number;
}

/** Game access tokens (Yggdrasil API): a kind of session of their own. */
export interface GameTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the access token; the token itself is never stored. */
  token_hash: string;
  /** The launcher's own string, answered back unchanged. */
  client_token: string;
  /** The player name when the token was bound ('' while unbound): after a rename the token only refreshes. */
  profile_name: string;
  /** The profile the token acts for; null until bound (a mail login of an account with several profiles). */
  profile_id: number | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The OAuth grant (oauth_grants) whose access token this is; null for a token of the password login. */
  oauth_grant_id: Generated<number | null>;
}

export interface GameJoinsTable {
  profile_id: number;
  server_id: string;
  /** The address the join came from, compared when the game server sends one. */
  ip: string | null;
  joined_at: number;
}

/** Launcher sessions (GravitLauncher's HTTP way): a kind of session of their own, with rotating token pairs. */
export interface LauncherSessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the access token and of the refresh token; the tokens themselves are never stored. */
  access_hash: string;
  refresh_hash: string;
  created_at: number;
  access_expires_at: number;
  /** The session ends here: no refresh and no server join after it. */
  refresh_expires_at: number;
  revoked_at: number | null;
  /** The profile the launcher logged in (GravitLauncher shows one player per session). */
  profile_id: number | null;
}

/** A flag in a table whose layout is GravitLauncher's: boolean on PostgreSQL, 0/1 on SQLite; null when never set. */
export type GravitFlag = boolean | number | null;

/** Hardware a launcher reported (GravitLauncher's `hwids`, names as its documentation gives them, lower case). */
export interface HwidsTable {
  id: Generated<number>;
  publickey: Buffer | null;
  hwdiskid: string | null;
  baseboardserialnumber: string | null;
  graphiccard: string | null;
  displayid: Buffer | null;
  bitness: number | null;
  totalmemory: number | null;
  logicalprocessors: number | null;
  physicalprocessors: number | null;
  processormaxfreq: number | null;
  battery: GravitFlag;
  banned: GravitFlag;
}

/** GravitLauncher's `hwidLog`: each public key a hardware record was given. */
export interface HwidLogTable {
  id: Generated<number>;
  hwidid: number;
  newpublickey: Buffer;
}

/** Which players used which hardware (the HTTP way's link; the sql core uses users.hwid_id instead). */
export interface HardwareUsersTable {
  hardware_id: number;
  user_id: number;
  connected_at: number;
}

/** Site-wide choices made in the console (registration control), by name; an absent one follows its setting. */
export interface ConsoleSettingsTable {
  name: string;
  value: string;
  changed_at: number;
  changed_by: number | null;
}

/** Invitations to register (REGISTRATION=invite): single use, expiring, revocable; the code is stored as its hash. */
export interface InvitesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the code (tokenHash); the code itself is shown once, in the link. */
  code_hash: string;
  note: string | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  /** When a registration took it, and the account it made; null while unused. */
  used_at: number | null;
  used_by: number | null;
  revoked_at: number | null;
}

/** An account's two-factor login (contract section 12); a row with enabled_at null is a setup not yet confirmed. */
export interface TwoFactorTable {
  user_id: number;
  /** The TOTP secret, AES-256-GCM under the server key (TOTP_KEY); never stored in clear. */
  secret: string;
  created_at: number;
  enabled_at: number | null;
  /** The last 30-second step a code was accepted at: no code of this step or an earlier one is taken again. */
  last_step: Generated<number>;
}

/** Single-use recovery codes of a two-factor login, stored as HMAC-SHA256 under a key derived from TOTP_KEY. */
export interface TwoFactorRecoveryTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

/** A player's app password (contract section 18): a launcher's password of its own, never the account's. */
/** A player's passkey (contract section 21): a WebAuthn credential. */
export interface PasskeysTable {
  id: Generated<number>;
  /** The credential id (base64url). */
  credential_id: string;
  user_id: number;
  /** The account's WebAuthn user handle (base64url), the same for each of its passkeys. */
  user_handle: string;
  /** The COSE public key (base64url). */
  public_key: string;
  /** The authenticator's signature counter at the last login (0 for authenticators that keep none). */
  counter: number;
  /** JSON list of the transports the browser reported. */
  transports: string;
  /** 1 when the credential is synced (a platform's passkey) rather than bound to one device. */
  backed_up: number;
  aaguid: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A challenge handed out for adding a passkey or logging in with one: single use, five minutes. */
export interface PasskeyChallengesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the challenge (adding) or of the login's challenge_id. */
  key_hash: string;
  /** The challenge (base64url) the response must sign. */
  challenge: string;
  /** Adding a passkey: the account's WebAuthn user handle the options named; null for a login. */
  user_handle: string | null;
  /** The web session that asked to add a passkey; null for a login. */
  session_id: number | null;
  expires_at: number;
}

export interface AppPasswordsTable {
  id: Generated<number>;
  user_id: number;
  /** The player's name for it, say the launcher it is for. */
  name: string;
  /** SHA-256 (hex) of the password as normalised (src/app-passwords/secret.ts). */
  password_hash: string;
  created_at: number;
  last_used_at: number | null;
}

/** The `state` of a Discord authorization request in progress (contract section 11): single use, 10 minutes. */
export interface DiscordStatesTable {
  /** SHA-256 (hex) of the state sent to Discord. */
  state_hash: string;
  /** 'register': registration through an OpenID Connect provider (migration 035). */
  purpose: 'link' | 'login' | 'register';
  /** The player linking; null for a login. */
  user_id: number | null;
  /** PKCE code verifier, sent to Discord's token endpoint with the code. */
  code_verifier: string;
  /** Whose request (migration 025: every external login's table): 'discord', or 'oidc:' and the provider's id. */
  provider: Generated<string>;
  /** The OpenID Connect nonce the ID token must carry; null for Discord. */
  nonce: string | null;
  /** SHA-256 (hex) of the nonce in the beginning browser's cookie: only that browser finishes the request. */
  browser_hash: string;
  created_at: number;
  expires_at: number;
}

/** The one-time code a Discord login hands the web page, exchanged for a session: single use, 2 minutes. */
export interface DiscordLoginCodesTable {
  /** SHA-256 (hex) of the code. */
  code_hash: string;
  user_id: number;
  /** Whose login it ended (as discord_states.provider). */
  provider: Generated<string>;
  /** The browser_hash of the request that led here: only the browser that began the login exchanges the code. */
  browser_hash: string;
  created_at: number;
  expires_at: number;
}

/** One row: the random name of this database's service (migration 014), under which shared Redis counters live. */
export interface DeploymentTable {
  id: number;
  namespace: string;
}

/** What an import brought over: a source row (by kind and id) and the row it became here (contract section 17). */
export interface ImportMapTable {
  /** The source's kind and database, e.g. `cookiecms:mysql://db.example/cookiecms`. */
  source: string;
  /** account, cape or hardware. */
  kind: string;
  source_id: string;
  target_id: number;
  imported_at: number;
}

export interface Database {
  deployment: DeploymentTable;
  users: UsersTable;
  profiles: ProfilesTable;
  import_map: ImportMapTable;
  sessions: SessionsTable;
  mail_codes: MailCodesTable;
  role_grants: RoleGrantsTable;
  audit_log: AuditLogTable;
  mail_outbox: MailOutboxTable;
  textures: TexturesTable;
  skins: SkinsTable;
  capes: CapesTable;
  cape_owners: CapeOwnersTable;
  broadcasts: BroadcastsTable;
  signing_keys: SigningKeysTable;
  player_certificates: PlayerCertificatesTable;
  game_tokens: GameTokensTable;
  game_joins: GameJoinsTable;
  launcher_sessions: LauncherSessionsTable;
  hwids: HwidsTable;
  hwidlog: HwidLogTable;
  hardware_users: HardwareUsersTable;
  two_factor: TwoFactorTable;
  two_factor_recovery: TwoFactorRecoveryTable;
  app_passwords: AppPasswordsTable;
  console_settings: ConsoleSettingsTable;
  invites: InvitesTable;
  discord_states: DiscordStatesTable;
  discord_login_codes: DiscordLoginCodesTable;
  oauth_models: OAuthModelsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_subjects: OAuthSubjectsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  library_entries: LibraryEntriesTable;
  library_saves: LibrarySavesTable;
  texture_blocks: TextureBlocksTable;
  game_bans: GameBansTable;
  game_preferences: GamePreferencesTable;
  oidc_identities: OidcIdentitiesTable;
  premium_links: PremiumLinksTable;
  blocked_servers: BlockedServersTable;
  player_blocks: PlayerBlocksTable;
  // Friends (contract section 25, migration 033).
  friendships: FriendshipsTable;
  friend_preferences: FriendPreferencesTable;
  // Reports from the game and forced actions (gamerep, migration 029).
  certified_chat_keys: CertifiedChatKeysTable;
  game_reports: GameReportsTable;
  forced_profile_actions: ForcedProfileActionsTable;
  // Registration through an OpenID Connect provider (oidcreg, migration 035).
  oidc_registrations: OidcRegistrationsTable;
  // Reports and moderation (libmod, migration 027)
  reports: ReportsTable;
}

/** A picture (canonical digest) that no upload, save or import may bring in. */
export interface TextureBlocksTable {
  digest: string;
  reason: string;
  created_by: number | null;
  created_at: number;
}

/** A published wardrobe skin or own cape (contract section 19). */
export interface LibraryEntriesTable {
  id: Generated<number>;
  kind: 'skin' | 'cape';
  skin_id: number | null;
  cape_id: number | null;
  owner_id: number;
  digest: string;
  /** classic or slim; null for capes. */
  model: 'classic' | 'slim' | null;
  name: string;
  /** The name in lower case, for `q`. */
  name_key: string;
  description: string;
  source: 'original' | 'derivative' | 'repost';
  source_url: string | null;
  saves: Generated<number>;
  state: 'public' | 'pending' | 'refused' | 'withdrawn';
  /** The digest while public or pending (unique), else null. */
  live_digest: string | null;
  created_at: number;
}

/** A player's copy of a library entry in their wardrobe. */
export interface LibrarySavesTable {
  entry_id: number;
  user_id: number;
  skin_id: number | null;
  cape_id: number | null;
  created_at: number;
}

/** A ban of an account from online play or from everything (contract section 24), kept after it ends. */
export interface GameBansTable {
  id: Generated<number>;
  /** The id the game shows: a UUID, lower case with dashes. */
  uuid: string;
  user_id: number;
  scope: string;
  /** A ban reason's name (src/standing/reasons.ts) or `other`. */
  reason: string;
  message: string | null;
  created_at: number;
  /** null: permanent. */
  expires_at: number | null;
  created_by: number | null;
  created_by_name: string;
  lifted_at: number | null;
  lifted_by_name: string | null;
}

/** What the game may change of a profile's attributes (POST player/attributes). */
export interface GamePreferencesTable {
  profile_id: number;
  profanity_filter: number;
}

/** An OpenID Connect identity linked to an account (contract section 26, migration 025). */
export interface OidcIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  /** The id of OIDC_PROVIDERS it was linked through. */
  provider: string;
  /** The issuer's URL and its `sub`: together the identity (never the mail address). */
  issuer: string;
  subject: string;
  /** The provider's name for the person, as last seen. */
  name: string;
  created_at: number;
}

/** A game server address the game refuses to join (sessionserver/blockedservers). */
export interface BlockedServersTable {
  id: Generated<number>;
  /** Lower case: a host name, `*.example.com`, an IP address or a prefix such as `192.168.*`. */
  address: string;
  created_at: number;
  created_by_name: string;
}

/** A player an account blocked (privacy/blocklist). */
export interface PlayerBlocksTable {
  user_id: number;
  /** The blocked profile. */
  profile_id: number;
  created_at: number;
}

// --- Friends (contract section 25, migration 033) ---
/** A pair of profiles: a friend request until accepted_at is set, then friends. */
export interface FriendshipsTable {
  /** The smaller of the two profile ids. */
  low_profile_id: number;
  high_profile_id: number;
  /** The profile that sent the request: one of the two. */
  requester_profile_id: number;
  created_at: number;
  accepted_at: number | null;
}

/** What the game may change of a profile's friends (friendsPreferences of player/attributes); 1 ENABLED, 0 DISABLED. */
export interface FriendPreferencesTable {
  profile_id: number;
  friends: number;
  accept_invites: number;
}

/** Every model oidc-provider keeps (tokens, codes, grants, sessions, interactions), as its JSON payload. */
export interface OAuthModelsTable {
  /** SHA-256 (hex) of `model:id`: a token's id is the token itself. */
  id: string;
  model: string;
  grant_id: string | null;
  /** SHA-256 (hex) of a device code's normalized user code. */
  user_code: string | null;
  uid: string | null;
  payload: string;
  /** Unix milliseconds; null: no end. */
  expires_at: number | null;
  /** A device code's last poll, for slow_down. */
  polled_at: number | null;
}

/** A client of the OpenID Provider: the built-in shared one and those admins register. */
export interface OAuthClientsTable {
  id: string;
  name: string;
  /** JSON list of URLs. */
  redirect_uris: string;
  public: number;
  device: number;
  /** SHA-256 (hex) of a confidential client's secret. */
  secret_hash: string | null;
  builtin: Generated<number>;
  created_at: number;
}

/** A player's consent to a client: a session of kind oauth; its tokens end with it. */
export interface OAuthGrantsTable {
  id: Generated<number>;
  /** oidc-provider's grant id. */
  grant_key: string;
  user_id: number;
  client_id: string;
  /** Space-separated. */
  scopes: string;
  /** The profile chosen for Yggdrasil.PlayerProfiles.Select. */
  profile_id: number | null;
  created_at: number;
  last_used_at: number | null;
  /** When its last token (the refresh token, else the access token) ends. */
  expires_at: number;
  revoked_at: number | null;
}

/** The opaque, stable `sub` of an account, the same for every client. */
export interface OAuthSubjectsTable {
  user_id: number;
  subject: string;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type ProfileRow = Selectable<ProfilesTable>;

/** Where a query can run: the database itself, or a transaction in progress. */
export type Executor = Kysely<Database> | Transaction<Database>;

// Reports from the game and forced actions (gamerep, contract section 24, migration 029).

/** A chat key player/certificates handed out, kept after a refresh so older reports still verify. */
export interface CertifiedChatKeysTable {
  id: Generated<number>;
  profile_uuid: string;
  /** SPKI DER, base64. */
  public_key: string;
  issued_at: number;
  expires_at: number;
}

/** A chat, name or skin report the game sent (POST player/report), with its evidence. */
export interface GameReportsTable {
  id: Generated<number>;
  report_id: string;
  kind: string;
  reporter_id: number | null;
  reporter_uuid: string;
  reporter_name: string;
  subject_profile_id: number | null;
  subject_uuid: string;
  subject_name: string;
  reason: string | null;
  comment: string;
  /** JSON (src/standing/game-reports.ts ReportEvidence). */
  evidence: string;
  attestation: string | null;
  state: string;
  created_at: number;
  closed_at: number | null;
  closed_by_name: string | null;
  closing_action: string | null;
}

/** A rename or skin change forced on a profile, holding while the name key or skin digest `value` is unchanged. */
export interface ForcedProfileActionsTable {
  id: Generated<number>;
  profile_id: number;
  action: string;
  value: string;
  created_at: number;
  created_by_name: string;
}
// Registration through an OpenID Connect provider (oidcreg, migration 035).
/** What a provider vouched for, waiting for the player to pick the profile name: single use, 30 minutes, one browser. */
export interface OidcRegistrationsTable {
  id: Generated<number>;
  ticket_hash: string;
  provider: string;
  issuer: string;
  subject: string;
  name: string;
  mail: string;
  /** 1: the provider said email_verified. */
  mail_verified: number;
  browser_hash: string;
  created_at: number;
  expires_at: number;
}

// ---- Reports and moderation (libmod, migration 027; contract section 19) ----

/** A player's report of a library entry (or, later, of a player), and how a moderator closed it. */
export interface ReportsTable {
  id: Generated<number>;
  kind: 'library' | 'chat' | 'name' | 'skin';
  reporter_id: number | null;
  /** A library entry's id as text, or a profile UUID. */
  subject: string;
  reason: 'inappropriate' | 'copyright' | 'other';
  message: string;
  evidence: string | null;
  attestation: string | null;
  state: 'open' | 'dismissed' | 'actioned';
  /** `kind:reporter:subject` while open (unique), else null. */
  open_key: string | null;
  action: string | null;
  action_reason: string | null;
  created_at: number;
  closed_at: number | null;
  closed_by: number | null;
  closed_by_name: string | null;
}

// ---- premium links (contract section 20, migration 037; src/fallback/premium.ts) ----

/** An official account (Mojang's, or a FALLBACK_SERVERS server's) proven by a challenge skin and linked to an account. */
export interface PremiumLinksTable {
  id: Generated<number>;
  user_id: number;
  /** 'mojang', or the API root of a FALLBACK_SERVERS entry. */
  source: string;
  /** Lower case with dashes. */
  premium_uuid: string;
  premium_name: string;
  /** The profile that wears the official textures while it wears none here (MOJANG_FALLBACK=skins). */
  profile_id: number | null;
  skin_digest: string | null;
  skin_slim: number;
  cape_digest: string | null;
  textures_at: number;
  created_at: number;
}
