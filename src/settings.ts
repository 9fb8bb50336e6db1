// Reads and validates every setting once at start. Nothing else in the service reads process.env.
import { randomBytes } from 'node:crypto';
import { REGISTRATION_MODES, type RegistrationModeName } from './http/shapes/registration.ts';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { PLAYER_NAME_RULES, type PlayerNameRule } from './minecraft/player-names.ts';

export type DatabaseSettings = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface OwnerSettings {
  username: string;
  mail: string;
  password: string;
}

export interface Settings {
  port: number;
  host: string;
  /** Base of every link the service hands out (mails, `url` fields, texture URLs); no trailing slash. */
  publicUrl: string;
  dataDir: string;
  database: DatabaseSettings;
  jwtSecret: string;
  /** The key two-factor secrets are encrypted under (AES-256-GCM, key = SHA-256 of it); at least 32 bytes. */
  totpKey: string;
  jwtTtlSeconds: number;
  /** null: mail is written as .eml files to DATA_DIR/outbox instead of being sent. */
  smtpUrl: string | null;
  mailFrom: string;
  /** null: rate limits are counted in memory. */
  redisUrl: string | null;
  logLevel: string;
  owner: OwnerSettings | null;
  /** Fastify's trustProxy: whether X-Forwarded-For names the client (behind a reverse proxy). */
  trustProxy: boolean | string;
  /** files: DATA_DIR/textures; database: the textures table (several instances on one PostgreSQL). */
  textureStore: 'files' | 'database';
  /** Largest texture upload accepted, in bytes. */
  maxTextureBytes: number;
  /** Widest skin (and cape) accepted, in pixels; a multiple of 64. */
  maxSkinWidth: number;
  /** Memory for rendered images and decoded textures, in bytes. */
  renderCacheBytes: number;
  /** Processes serving on this machine (node:cluster); more than one needs Redis for shared rate limits. */
  workers: number;
  /** null: /metrics is open (keep it on the internal network); else it needs Authorization: Bearer <token>. */
  metricsToken: string | null;
  /** The site's name, shown by launchers (Yggdrasil meta) and on the pages. */
  serverName: string;
  /** Whether game servers in offline mode get skins by the offline-mode UUID of a registered name. */
  offlineSkins: boolean;
  /** The bearer a GravitLauncher LaunchServer sends; null: the /api/gravit/ routes are off. */
  gravitToken: string | null;
  /** Lifetime of a launcher access token (GravitLauncher), in seconds. */
  gravitTokenTtlSeconds: number;
  /** Who may create an account: anyone, only with an invitation, or nobody; the console can override it. */
  registration: RegistrationModeName;
  /** The Discord application of the Discord link and login; null: both are off. */
  discord: DiscordSettings | null;
  profiles: ProfileSettings;
  /** YGGDRASIL_CONNECT: the OpenID Provider for launchers (contract section 18); while off, its tokens are refused. */
  yggdrasilConnect: boolean;
}

/** Several game profiles per account (contract section 16). */
export interface ProfileSettings {
  /** PROFILE_NAME_RULE: which names every profile (and so every username) may have. */
  nameRule: PlayerNameRule;
  /** MAX_PROFILES: profiles per account unless an admin set the account's own limit; -1: unlimited. */
  maxProfiles: number;
  /** PROFILE_UUID: random (v4) or the offline-mode UUID of the name at creation, for every new profile. */
  uuid: 'random' | 'offline';
  /** PROFILE_RENAME: whether players may rename their profiles (admins always may). */
  rename: boolean;
}

/** What an owner who sets none of the PROFILE_* settings gets: one profile per account, today's behaviour. */
export const DEFAULT_PROFILE_SETTINGS: ProfileSettings = { nameRule: 'minecraft', maxProfiles: 1, uuid: 'random', rename: true };

export interface DiscordSettings {
  clientId: string;
  clientSecret: string;
  /** Base of /oauth2/authorize, /api/oauth2/token and /api/users/@me; no trailing slash. */
  url: string;
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n  ${problems.join('\n  ')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** HOST values that accept connections from other machines. */
const EVERY_INTERFACE = ['0.0.0.0', '::'];
const defaultPublicUrl = (port: number) => `http://localhost:${port}`;
const TTL_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Environment variables win over a `.env` file in the working directory. */
export function readEnvironment(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const dotenvPath = join(cwd, '.env');
  const fromFile = existsSync(dotenvPath) ? parseEnv(readFileSync(dotenvPath, 'utf8')) : {};
  return { ...fromFile, ...env };
}

/** Turns raw variables into validated settings, or throws a SettingsError naming every bad value. */
export function parseSettings(env: Record<string, string | undefined>): Settings {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const bad = (name: string, why: string) => problems.push(`${name}: ${why} (got ${JSON.stringify(env[name])})`);
  const wholeNumber = (name: string, fallback: number, min: number, max: number) => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    if (/^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max) return Number(raw);
    bad(name, `must be a whole number from ${min} to ${max}`);
    return fallback;
  };

  const port = wholeNumber('PORT', 8080, 0, 65535);

  const host = text('HOST') ?? '0.0.0.0';

  let publicUrl = defaultPublicUrl(port);
  const rawPublicUrl = text('PUBLIC_URL');
  if (rawPublicUrl !== undefined) {
    if (isHttpUrl(rawPublicUrl)) publicUrl = rawPublicUrl.replace(/\/+$/, '');
    else bad('PUBLIC_URL', 'must be an absolute http:// or https:// URL');
  }

  const dataDir = resolve(text('DATA_DIR') ?? './data');

  let database: DatabaseSettings = { kind: 'sqlite', file: join(dataDir, 'skinservice.sqlite') };
  const rawDatabaseUrl = text('DATABASE_URL');
  if (rawDatabaseUrl !== undefined) {
    if (/^postgres(ql)?:\/\//.test(rawDatabaseUrl)) database = { kind: 'postgres', url: rawDatabaseUrl };
    else if (/^sqlite:/.test(rawDatabaseUrl) && rawDatabaseUrl.replace(/^sqlite:(\/\/)?/, '') !== '') {
      database = { kind: 'sqlite', file: resolve(rawDatabaseUrl.replace(/^sqlite:(\/\/)?/, '')) };
    } else bad('DATABASE_URL', 'must be postgres://user@host:port/database or sqlite:path/to/file.sqlite');
  }

  const jwtSecret = text('JWT_SECRET');
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) bad('JWT_SECRET', 'must be at least 32 bytes long');
  const totpKey = text('TOTP_KEY');
  // Without the value: it is a secret.
  if (totpKey !== undefined && Buffer.byteLength(totpKey) < 32)
    problems.push(`TOTP_KEY: must be at least 32 bytes long (it has ${Buffer.byteLength(totpKey)})`);

  /** A lifetime: seconds, or a number followed by s, m, h or d; from one minute up to `maxSeconds`. */
  const lifetime = (name: string, fallback: number, maxSeconds: number, example: string) => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const match = /^(\d+)([smhd]?)$/.exec(raw);
    if (!match) {
      bad(name, `must be a whole number of seconds, or a number followed by s, m, h or d (for example ${example})`);
      return fallback;
    }
    const seconds = Number(match[1]) * TTL_UNITS[match[2] || 's']!;
    if (seconds < 60) bad(name, 'must be at least one minute');
    else if (seconds > maxSeconds) bad(name, `must be at most ${maxSeconds / 86400} days`);
    return seconds;
  };

  const jwtTtlSeconds = lifetime('JWT_TTL', 24 * 3600, Number.POSITIVE_INFINITY, '24h');

  const smtpUrl = text('SMTP_URL') ?? null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) bad('SMTP_URL', 'must be smtp://host:port or smtps://user:pass@host:port');

  const mailFrom = text('MAIL_FROM') ?? `Skin service <no-reply@${hostnameOf(publicUrl)}>`;
  if (!/<?[^\s@<>]+@[^\s@<>]+>?\s*$/.test(mailFrom))
    bad('MAIL_FROM', 'must be a mail address, optionally with a display name: Name <address@host>');

  const redisUrl = text('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/[^/]+/.test(redisUrl)) bad('REDIS_URL', 'must be redis://host:port or rediss://host:port');

  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) bad('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  const nameRule = (text('PROFILE_NAME_RULE') ?? 'minecraft') as PlayerNameRule;
  if (!PLAYER_NAME_RULES.includes(nameRule)) bad('PROFILE_NAME_RULE', `must be one of ${PLAYER_NAME_RULES.join(', ')}`);
  const rawMaxProfiles = text('MAX_PROFILES') ?? '1';
  const maxProfiles = rawMaxProfiles === '-1' ? -1 : wholeNumber('MAX_PROFILES', 1, 1, 1000);
  const profileUuid = text('PROFILE_UUID') ?? 'random';
  if (profileUuid !== 'random' && profileUuid !== 'offline') bad('PROFILE_UUID', 'must be random or offline');
  const rawProfileRename = text('PROFILE_RENAME') ?? 'true';
  if (rawProfileRename !== 'true' && rawProfileRename !== 'false') bad('PROFILE_RENAME', 'must be true or false');
  const profiles: ProfileSettings = {
    nameRule: PLAYER_NAME_RULES.includes(nameRule) ? nameRule : 'minecraft',
    maxProfiles,
    uuid: profileUuid as ProfileSettings['uuid'],
    rename: rawProfileRename !== 'false',
  };

  let owner: OwnerSettings | null = null;
  const ownerFields = { username: text('OWNER_USERNAME'), mail: text('OWNER_MAIL'), password: env.OWNER_PASSWORD };
  const givenOwnerFields = Object.values(ownerFields).filter((value) => value !== undefined && value !== '').length;
  // The rules of every account are held to in AccountService.ensureOwner, which creates the owner at start.
  if (givenOwnerFields === 3) {
    owner = ownerFields as OwnerSettings;
  } else if (givenOwnerFields > 0) {
    problems.push('OWNER_USERNAME, OWNER_MAIL, OWNER_PASSWORD: give all three to create an owner, or none');
  }

  let trustProxy: boolean | string = false;
  const rawTrustProxy = text('TRUST_PROXY');
  if (rawTrustProxy !== undefined) trustProxy = rawTrustProxy === 'true' ? true : rawTrustProxy === 'false' ? false : rawTrustProxy;

  const textureStore = text('TEXTURE_STORE') ?? 'files';
  if (textureStore !== 'files' && textureStore !== 'database') bad('TEXTURE_STORE', 'must be files or database');

  const maxTextureBytes = wholeNumber('MAX_TEXTURE_BYTES', 1024 * 1024, 1024, 16 * 1024 * 1024);
  const maxSkinWidth = wholeNumber('MAX_SKIN_WIDTH', 1024, 64, 4096);
  if (maxSkinWidth % 64 !== 0) bad('MAX_SKIN_WIDTH', 'must be a multiple of 64');
  const renderCacheBytes = wholeNumber('RENDER_CACHE_MB', 64, 1, 16 * 1024) * 1024 * 1024;

  // In-memory rate-limit counters would be per process: each worker would allow the full limit again.
  const workers = wholeNumber('WORKERS', 1, 1, 256);
  if (workers > 1 && redisUrl === null)
    bad('WORKERS', 'more than 1 needs REDIS_URL, so that the worker processes share one rate-limit count');

  const metricsToken = text('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && Buffer.byteLength(metricsToken) < 16) bad('METRICS_TOKEN', 'must be at least 16 bytes long');

  const serverName = text('SERVER_NAME') ?? 'Skin service';
  if (serverName.length > 64) bad('SERVER_NAME', 'must be at most 64 characters');

  const rawOfflineSkins = text('OFFLINE_SKINS') ?? 'true';
  if (rawOfflineSkins !== 'true' && rawOfflineSkins !== 'false') bad('OFFLINE_SKINS', 'must be true or false');

  const gravitToken = text('GRAVIT_TOKEN') ?? null;
  // Without the value: it is a secret, shared with the LaunchServer.
  if (gravitToken !== null && Buffer.byteLength(gravitToken) < 16)
    problems.push(`GRAVIT_TOKEN: must be at least 16 bytes long (it has ${Buffer.byteLength(gravitToken)})`);
  // An access token cannot outlive its session, whose refresh token lives 30 days (src/gravit/sessions.ts).
  const gravitTokenTtlSeconds = lifetime('GRAVIT_TOKEN_TTL', 3600, 30 * 86400, '1h');

  // The secret's value stays out of the message, like GRAVIT_TOKEN's.
  const discordClientId = text('DISCORD_CLIENT_ID');
  const discordClientSecret = text('DISCORD_CLIENT_SECRET');
  const discordUrl = (text('DISCORD_URL') ?? 'https://discord.com').replace(/\/+$/, '');
  if (!isHttpUrl(discordUrl)) bad('DISCORD_URL', 'must be an absolute http:// or https:// URL');
  if (discordClientId !== undefined && !/^\d{1,20}$/.test(discordClientId))
    bad('DISCORD_CLIENT_ID', "must be the application's id from Discord's developer portal (digits only)");
  if ((discordClientId === undefined) !== (discordClientSecret === undefined))
    problems.push('DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET: set both (the Discord login needs the two), or neither');
  const discord =
    discordClientId !== undefined && discordClientSecret !== undefined
      ? { clientId: discordClientId, clientSecret: discordClientSecret, url: discordUrl }
      : null;

  const rawConnect = text('YGGDRASIL_CONNECT') ?? 'true';
  if (rawConnect !== 'true' && rawConnect !== 'false') bad('YGGDRASIL_CONNECT', 'must be true or false');

  const registration = text('REGISTRATION') ?? 'open';
  if (!(REGISTRATION_MODES as readonly string[]).includes(registration))
    bad('REGISTRATION', `must be one of ${REGISTRATION_MODES.join(', ')}`);

  if (problems.length > 0) throw new SettingsError(problems);
  return {
    port,
    host,
    publicUrl,
    dataDir,
    database,
    jwtSecret: jwtSecret ?? '',
    totpKey: totpKey ?? '',
    jwtTtlSeconds,
    smtpUrl,
    mailFrom,
    redisUrl,
    logLevel,
    owner,
    trustProxy,
    textureStore: textureStore as Settings['textureStore'],
    maxTextureBytes,
    maxSkinWidth,
    renderCacheBytes,
    workers,
    metricsToken,
    serverName,
    offlineSkins: rawOfflineSkins === 'true',
    gravitToken,
    gravitTokenTtlSeconds,
    registration: registration as RegistrationModeName,
    discord,
    profiles,
    yggdrasilConnect: rawConnect !== 'false',
  };
}

/** Settings that work but are probably not what was meant: logged as warnings at start. */
export function settingsWarnings(settings: Settings): string[] {
  const warnings: string[] = [];
  if (settings.publicUrl === defaultPublicUrl(settings.port) && EVERY_INTERFACE.includes(settings.host)) {
    warnings.push(
      `PUBLIC_URL is not set, so links in mails and url fields say ${settings.publicUrl}, which other machines cannot open, ` +
        `while HOST=${settings.host} lets them connect: set PUBLIC_URL to the address users reach`,
    );
  }
  const dataDirMode = modeOf(settings.dataDir);
  if (dataDirMode !== null && (dataDirMode & 0o077) !== 0) {
    // Made by an older version or by hand: the service changes no permission it did not set itself.
    warnings.push(
      `DATA_DIR ${settings.dataDir} is open to other users of this machine (mode ${dataDirMode.toString(8)}), and it holds ` +
        `the database, the secret files and the outbox: chmod 700 it`,
    );
  }
  return warnings;
}

function modeOf(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

/**
 * Reads the environment, validates it, and fills in the JWT secret and the TOTP key kept in DATA_DIR when not
 * configured. Every entry point (the service, the CLI) starts here, so this is also where the process stops creating
 * anything other local users can read: the database and its -wal/-shm files, texture files, the outbox, backups.
 */
export function loadSettings(): Settings {
  process.umask(0o077);
  const settings = parseSettings(readEnvironment());
  mkdirSync(settings.dataDir, { recursive: true, mode: 0o700 });
  if (settings.jwtSecret === '') settings.jwtSecret = persistentSecret(join(settings.dataDir, 'jwt-secret'));
  if (settings.totpKey === '') settings.totpKey = persistentSecret(join(settings.dataDir, 'totp-key'));
  return settings;
}

/** The secret survives restarts, so tokens issued before a restart stay valid. */
function persistentSecret(file: string): string {
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(stored) >= 32) return stored;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function hostnameOf(url: string): string {
  return new URL(url).hostname;
}
