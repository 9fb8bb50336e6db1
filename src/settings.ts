// Reads and validates every setting once at start. Nothing else in the service reads process.env.
import { randomBytes } from 'node:crypto';
import { REGISTRATION_MODES, type RegistrationModeName } from './http/shapes/registration.ts';
import { accessSync, constants as fsConstants, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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
  /** USER_CAPES: whether players upload capes of their own (contract section 19); false: capes come from admins. */
  userCapes: boolean;
  /** LIBRARY_REVIEW: new library entries wait for a moderator (contract section 19), but not those of review_exempt accounts. */
  libraryReview: boolean;
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
  /** GAME_SERVICES: the game's own account services (contract section 24): bans the game shows, its attributes. */
  gameServices: boolean;
  /** FRIENDS: the game's friends list and presence (contract section 25, 26.2+) and the profile's friends card. */
  friends: boolean;
  /** MOJANG_FALLBACK and FALLBACK_SERVERS (contract section 20): where unknown players are looked for; null: off. */
  fallback: FallbackSettings | null;
  /** OIDC_PROVIDERS: the OpenID Connect providers one can log in with (contract section 26), in the order listed. */
  oidcProviders: OidcProviderSettings[];
}

/** One place an unknown player may come from: Mojang, or another authlib-injector server. */
export type FallbackSourceSettings =
  | { kind: 'mojang'; name: string; sessionUrl: string; apiUrl: string; texturesHost: string }
  | { kind: 'authlib-injector'; name: string | null; root: string };

/**
 * Contract section 20. `skins`: the premium link (a challenge skin proves an account at a source) and, for a linked
 * profile that wears no skin or cape here, the official ones; `auth` adds the game login, profile and name look-ups
 * falling through to the sources, in order.
 */
export interface FallbackSettings {
  mode: 'skins' | 'auth';
  sources: FallbackSourceSettings[];
  cacheTtlSeconds: number;
  /** PREMIUM_RECLAIM: a profile here holding a linked official name passes to the linking account. */
  premiumReclaim: boolean;
  /** PREMIUM_IMPORT: registration step 3 may take a proven account's name and UUID. */
  premiumImport: boolean;
}

/** One OpenID Connect provider of OIDC_PROVIDERS (contract section 26): its OIDC_{ID}_* settings. */
export interface OidcProviderSettings {
  /** [a-z0-9-]{1,32}: in the redirect URI {PUBLIC_URL}/api/auth/oidc/{id}/callback and in OIDC_{ID}_* (upper case, - as _). */
  id: string;
  /** OIDC_{ID}_ISSUER: discovery at {issuer}/.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  /** OIDC_{ID}_CLIENT_SECRET; null: a public client (PKCE only). */
  clientSecret: string | null;
  /** OIDC_{ID}_NAME: the button's text; default the id. */
  name: string;
  /** OIDC_{ID}_SCOPES: default openid profile email; always with openid. */
  scopes: string;
  /** OIDC_{ID}_REGISTER: whether a person without an account here may register through it. */
  register: boolean;
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
  /** NAME_CHANGE_DAYS: days a player waits after renaming a profile before renaming it again; 0: no wait. */
  nameChangeDays: number;
}

/** What an owner who sets none of the PROFILE_* settings gets: one profile per account, today's behaviour. */
export const DEFAULT_PROFILE_SETTINGS: ProfileSettings = {
  nameRule: 'minecraft',
  maxProfiles: 1,
  uuid: 'random',
  rename: true,
  nameChangeDays: 0,
};

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

/**
 * Whether a setting's value is a secret: every name ending in one of these (JWT_SECRET, TOTP_KEY, OWNER_PASSWORD,
 * GRAVIT_TOKEN, METRICS_TOKEN, DISCORD_CLIENT_SECRET and every later client secret) and the addresses that carry a
 * password. Each may be given instead as NAME_FILE, the path of a file holding the value, as Docker and Kubernetes
 * mount secrets (contract section 23).
 */
export function isSecretSetting(name: string): boolean {
  return /_(SECRET|PASSWORD|TOKEN|KEY)$/.test(name) || ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL'].includes(name);
}

/** A secret file holds one value; anything bigger is the wrong file. */
const SECRET_FILE_MAX_BYTES = 64 * 1024;

/**
 * The variables with each secret's NAME_FILE replaced by NAME, the file's content with one trailing newline removed;
 * a problem for each NAME_FILE that cannot be read, or that is given beside NAME.
 */
function readSecretFiles(env: Record<string, string | undefined>, problems: string[]): Record<string, string | undefined> {
  const resolved = { ...env };
  for (const [variable, path] of Object.entries(env)) {
    const name = variable.replace(/_FILE$/, '');
    if (name === variable || !isSecretSetting(name) || path === undefined || path.trim() === '') continue;
    delete resolved[variable];
    if (env[name] !== undefined && env[name].trim() !== '') {
      problems.push(`${name} and ${variable}: both are set; give the value once, either in ${name} or in the file ${variable} names`);
      continue;
    }
    const content = readSecretFile(path);
    if (typeof content === 'string') resolved[name] = content;
    else problems.push(`${variable}: ${content.problem} (got ${JSON.stringify(path)})`);
  }
  return resolved;
}

function readSecretFile(path: string): string | { problem: string } {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return { problem: 'must name a file' };
    if (stats.size > SECRET_FILE_MAX_BYTES)
      return { problem: `must name a file holding only the value (this one has ${stats.size} bytes)` };
    const content = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    return content.trim() === '' ? { problem: 'names an empty file' } : content;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: 'names no file' };
    if (code === 'EACCES') return { problem: `names a file this service's user${userIds()} cannot read` };
    return { problem: `cannot be read (${code ?? String(error)})` };
  }
}

/** Environment variables win over a `.env` file in the working directory. */
export function readEnvironment(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const dotenvPath = join(cwd, '.env');
  const fromFile = existsSync(dotenvPath) ? parseEnv(readFileSync(dotenvPath, 'utf8')) : {};
  return { ...fromFile, ...env };
}

/** Turns raw variables into validated settings, or throws a SettingsError naming every bad value. */
export function parseSettings(variables: Record<string, string | undefined>): Settings {
  const problems: string[] = [];
  const env = readSecretFiles(variables, problems);
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  // A secret's value stays out of the message: it goes to the terminal or a log.
  const bad = (name: string, why: string) =>
    problems.push(isSecretSetting(name) ? `${name}: ${why}` : `${name}: ${why} (got ${JSON.stringify(env[name])})`);
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
    nameChangeDays: wholeNumber('NAME_CHANGE_DAYS', 0, 0, 3650),
  };

  let owner: OwnerSettings | null = null;
  const ownerFields = { username: text('OWNER_USERNAME'), mail: text('OWNER_MAIL'), password: env.OWNER_PASSWORD };
  const givenOwnerFields = Object.values(ownerFields).filter((value) => value !== undefined && value !== '').length;
  // The rules of every account are held to in ensureOwner (src/accounts/owner.ts), which makes the owner at start.
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

  const rawUserCapes = text('USER_CAPES') ?? 'false';
  if (rawUserCapes !== 'true' && rawUserCapes !== 'false') bad('USER_CAPES', 'must be true or false');

  const rawLibraryReview = text('LIBRARY_REVIEW') ?? 'false';
  if (rawLibraryReview !== 'true' && rawLibraryReview !== 'false') bad('LIBRARY_REVIEW', 'must be true or false');

  const gravitToken = text('GRAVIT_TOKEN') ?? null;
  // Without the value: it is a secret, shared with the LaunchServer.
  if (gravitToken !== null && Buffer.byteLength(gravitToken) < 16)
    problems.push(`GRAVIT_TOKEN: must be at least 16 bytes long (it has ${Buffer.byteLength(gravitToken)})`);
  // An access token cannot outlive its session, whose refresh token lives 30 days (src/sessions/launcher.ts).
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

  // OpenID Connect providers (contract section 26); the secrets' values stay out of the messages.
  const oidcProviders: OidcProviderSettings[] = [];
  for (const id of (text('OIDC_PROVIDERS') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    if (!/^[a-z0-9-]{1,32}$/.test(id)) {
      bad('OIDC_PROVIDERS', `"${id}" is no provider id: 1 to 32 of a-z, 0-9 and -`);
      continue;
    }
    if (oidcProviders.some((provider) => provider.id === id)) {
      bad('OIDC_PROVIDERS', `"${id}" is listed twice`);
      continue;
    }
    const prefix = `OIDC_${id.toUpperCase().replaceAll('-', '_')}_`;
    const issuer = text(`${prefix}ISSUER`)?.replace(/\/+$/, '');
    const clientId = text(`${prefix}CLIENT_ID`);
    if (issuer === undefined || !isHttpUrl(issuer)) bad(`${prefix}ISSUER`, 'must be the absolute http:// or https:// URL of the issuer');
    if (clientId === undefined) bad(`${prefix}CLIENT_ID`, 'must be the client id this service has at the provider');
    const scopes = (text(`${prefix}SCOPES`) ?? 'openid profile email').split(/\s+/).filter((scope) => scope !== '');
    if (!scopes.includes('openid')) scopes.unshift('openid');
    const rawRegister = text(`${prefix}REGISTER`) ?? 'false';
    if (rawRegister !== 'true' && rawRegister !== 'false') bad(`${prefix}REGISTER`, 'must be true or false');
    const name = text(`${prefix}NAME`) ?? id;
    if (name.length > 64) bad(`${prefix}NAME`, 'must be at most 64 characters');
    if (issuer === undefined || clientId === undefined) continue;
    oidcProviders.push({
      id,
      issuer,
      clientId,
      clientSecret: text(`${prefix}CLIENT_SECRET`) ?? null,
      name,
      scopes: scopes.join(' '),
      register: rawRegister === 'true',
    });
  }

  const rawConnect = text('YGGDRASIL_CONNECT') ?? 'true';
  if (rawConnect !== 'true' && rawConnect !== 'false') bad('YGGDRASIL_CONNECT', 'must be true or false');

  const rawGameServices = text('GAME_SERVICES') ?? 'true';
  if (rawGameServices !== 'true' && rawGameServices !== 'false') bad('GAME_SERVICES', 'must be true or false');

  const rawFriends = text('FRIENDS') ?? 'false';
  if (rawFriends !== 'true' && rawFriends !== 'false') bad('FRIENDS', 'must be true or false');

  const registration = text('REGISTRATION') ?? 'open';
  if (!(REGISTRATION_MODES as readonly string[]).includes(registration))
    bad('REGISTRATION', `must be one of ${REGISTRATION_MODES.join(', ')}`);

  const fallback = fallbackSettings(text, bad);

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
    userCapes: rawUserCapes === 'true',
    libraryReview: rawLibraryReview === 'true',
    gravitToken,
    gravitTokenTtlSeconds,
    registration: registration as RegistrationModeName,
    discord,
    profiles,
    yggdrasilConnect: rawConnect !== 'false',
    gameServices: rawGameServices === 'true',
    friends: rawFriends === 'true',
    fallback,
    oidcProviders,
  };
}

/** MOJANG_FALLBACK, MOJANG_*, FALLBACK_MOJANG, FALLBACK_SERVERS, PREMIUM_RECLAIM and PREMIUM_IMPORT. */
function fallbackSettings(text: (name: string) => string | undefined, bad: (name: string, why: string) => void): FallbackSettings | null {
  const mode = text('MOJANG_FALLBACK') ?? 'off';
  const servers = text('FALLBACK_SERVERS');
  if (mode !== 'off' && mode !== 'skins' && mode !== 'auth') bad('MOJANG_FALLBACK', 'must be off, skins or auth');
  const flag = (name: string) => {
    const raw = text(name) ?? 'false';
    if (raw !== 'true' && raw !== 'false') bad(name, 'must be true or false');
    return raw === 'true';
  };
  const premiumReclaim = flag('PREMIUM_RECLAIM');
  const premiumImport = flag('PREMIUM_IMPORT');
  if (mode !== 'auth' && mode !== 'skins') {
    if (servers !== undefined && mode === 'off') bad('FALLBACK_SERVERS', 'applies only with MOJANG_FALLBACK=skins or auth');
    if (mode === 'off' && premiumReclaim) bad('PREMIUM_RECLAIM', 'applies only with MOJANG_FALLBACK=skins or auth');
    if (mode === 'off' && premiumImport) bad('PREMIUM_IMPORT', 'applies only with MOJANG_FALLBACK=skins or auth');
    return null;
  }
  const url = (name: string, given: string | undefined, fallback: string) => {
    const value = (given ?? fallback).replace(/\/+$/, '');
    if (!isHttpUrl(value)) bad(name, 'must be an absolute http:// or https:// URL');
    return value;
  };
  const sessionUrl = url('MOJANG_SESSION_URL', text('MOJANG_SESSION_URL'), 'https://sessionserver.mojang.com');
  const apiUrl = url('MOJANG_API_URL', text('MOJANG_API_URL'), 'https://api.mojang.com');
  const texturesHost = text('MOJANG_TEXTURES_HOST') ?? 'textures.minecraft.net';
  if (!/^[a-z0-9.-]+$/i.test(texturesHost)) bad('MOJANG_TEXTURES_HOST', 'must be a host name, such as textures.minecraft.net');
  const rawTtl = text('MOJANG_CACHE_TTL') ?? '600';
  if (!/^\d{1,7}$/.test(rawTtl) || Number(rawTtl) < 1) bad('MOJANG_CACHE_TTL', 'must be a whole number of seconds, at least 1');
  const withMojang = text('FALLBACK_MOJANG') ?? 'true';
  if (withMojang !== 'true' && withMojang !== 'false') bad('FALLBACK_MOJANG', 'must be true or false');
  const sources: FallbackSourceSettings[] =
    withMojang === 'false' ? [] : [{ kind: 'mojang', name: 'Mojang', sessionUrl, apiUrl, texturesHost: texturesHost.toLowerCase() }];
  for (const entry of (servers ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    // name=https://host/api/yggdrasil/; a URL's own `=` comes after its `://`.
    const equals = entry.indexOf('=');
    const named = equals > 0 && !entry.slice(0, equals).includes('://');
    const name = named ? entry.slice(0, equals).trim() : null;
    const root = (named ? entry.slice(equals + 1) : entry).trim().replace(/\/*$/, '/');
    if (!isHttpUrl(root)) bad('FALLBACK_SERVERS', 'each entry must be an authlib-injector API root URL, optionally prefixed name=');
    else if (name !== null && (name === '' || name.length > 64)) bad('FALLBACK_SERVERS', 'a name before = must have 1 to 64 characters');
    else sources.push({ kind: 'authlib-injector', name, root });
  }
  if (sources.length === 0) bad('FALLBACK_SERVERS', `MOJANG_FALLBACK=${mode} with FALLBACK_MOJANG=false needs at least one server here`);
  return { mode, sources, cacheTtlSeconds: Number(rawTtl), premiumReclaim, premiumImport };
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
  prepareDataDir(settings.dataDir);
  if (settings.jwtSecret === '') settings.jwtSecret = persistentSecret(join(settings.dataDir, 'jwt-secret'));
  if (settings.totpKey === '') settings.totpKey = persistentSecret(join(settings.dataDir, 'totp-key'));
  return settings;
}

/**
 * Creates DATA_DIR when missing, and refuses the start, with the command that fixes it, when this process cannot write
 * there: a folder made by root, or a container volume whose files belong to another uid, would otherwise fail at the
 * first write with an error that names neither DATA_DIR nor the fix.
 */
function prepareDataDir(dataDir: string) {
  const owner = `${process.getuid?.() ?? 'UID'}:${process.getgid?.() ?? 'GID'}`;
  const chown = `chown -R ${owner} ${dataDir}`;
  const refused = (code: string | undefined) => code === 'EACCES' || code === 'EPERM';
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if (!refused((error as NodeJS.ErrnoException).code)) throw error;
    throw new SettingsError([
      `DATA_DIR: ${dataDir} cannot be created by the user this service runs as${userIds()}: as root, run \`mkdir -p ${dataDir} && ${chown}\``,
    ]);
  }
  const notWritable = (what: string) =>
    new SettingsError([
      `DATA_DIR: ${what} not writable by the user this service runs as${userIds()}: as root, run \`${chown}\` ` +
        `(for a container's volume: \`docker run --rm --user 0 -v VOLUME:${dataDir} IMAGE ${chown}\`, or that chown on the host's folder)`,
    ]);
  const check = (path: string, what: string) => {
    try {
      accessSync(path, fsConstants.R_OK | fsConstants.W_OK | (statSync(path).isDirectory() ? fsConstants.X_OK : 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EROFS') throw new SettingsError([`DATA_DIR: ${dataDir} is on a read-only file system: mount it writable`]);
      if (refused(code)) throw notWritable(what);
      if (code !== 'ENOENT') throw error; // gone meanwhile (a -wal file): nothing to write to
    }
  };
  check(dataDir, `${dataDir} is`);
  // What is directly in it: the database and its -wal and -shm files, the secret files, textures/, outbox/.
  for (const entry of readdirSync(dataDir)) check(join(dataDir, entry), `${dataDir} holds ${entry}, which is`);
}

/** ` (uid 1000, gid 1000)`, or nothing where the platform has no such ids. */
function userIds(): string {
  return process.getuid ? ` (uid ${process.getuid()}, gid ${process.getgid!()})` : '';
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
