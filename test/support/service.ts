// Builds the whole service through the composition root, on a test database and the in-process SMTP server;
// or starts it as a process of its own (startServiceProcess), for tests of several instances.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp, type AppOptions } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { openDatabase } from '../../src/database/connect.ts';
import type { Database } from '../../src/database/schema.ts';
import { DEFAULT_PROFILE_SETTINGS, type Settings } from '../../src/settings.ts';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.ts';
import { multipartBody, type FormFile } from './multipart.ts';
import { freePort } from './net.ts';
import { codeIn, mailTo, startSmtpServer, type Mailbox } from './smtp.ts';
import { until } from './wait.ts';

export const PUBLIC_URL = 'http://skins.test';

/** The owner account tests create through the OWNER_* settings. */
export const OWNER = { username: 'Owner', mail: 'owner@example.org', password: 'owner password' };

export interface Reply {
  status: number;
  headers: Record<string, string | number | string[] | undefined>;
  body: any;
  raw: Buffer;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** The client address the request comes from (rate limits count per address). */
  ip?: string;
  headers?: Record<string, string>;
}

/** What a test does with a running service, whether it runs in the test process or in a process of its own. */
export interface ServiceClient {
  settings: Settings;
  database: TestDatabase;
  mailbox: Mailbox;
  /** A connection of the test's own to the service's database, to check what was (not) written. */
  db: Kysely<Database>;
  call(method: string, url: string, options?: CallOptions): Promise<Reply>;
  /** A multipart/form-data POST, as a browser form sends it (or a PUT, as a launcher uploads a skin). */
  upload(
    url: string,
    token: string | undefined,
    fields: Record<string, string | string[]>,
    files: FormFile[],
    method?: 'POST' | 'PUT',
  ): Promise<Reply>;
  /** Logs in the OWNER (start the service with `settings: { owner: OWNER }`) and returns the token. */
  ownerToken(): Promise<string>;
  /** Registration steps 1-3 through the API, reading the code from the mail; returns a logged-in player. */
  registerPlayer(input?: {
    mail?: string;
    username?: string;
    password?: string;
  }): Promise<{ token: string; mail: string; username: string; password: string }>;
  close(): Promise<void>;
}

export interface TestService extends ServiceClient {
  /** The running app; restart() replaces it. */
  readonly app: FastifyInstance;
  /** Stops the app and starts a new one on the same database and mailbox, as a service restart would. */
  restart(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  settings?: Partial<Settings>;
  app?: AppOptions;
  /** A mailbox the caller manages; by default the service gets its own SMTP server. */
  mailbox?: Mailbox;
  /** A database the caller manages (several instances on one database); by default a fresh one, dropped at close. */
  database?: TestDatabase;
}

export const randomAddress = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
export const uniqueName = (prefix = 'p') => `${prefix}_${randomBytes(4).toString('hex')}`;

export function testSettings(overrides: Partial<Settings>): Settings {
  return {
    port: 0,
    host: '127.0.0.1',
    publicUrl: PUBLIC_URL,
    dataDir: mkdtempSync(join(tmpdir(), 'skinservice-data-')),
    database: { kind: 'sqlite', file: ':memory:' },
    jwtSecret: 'test-secret-that-is-at-least-32-bytes-long',
    totpKey: 'test-totp-key-that-is-at-least-32-bytes-long',
    jwtTtlSeconds: 3600,
    smtpUrl: null,
    mailFrom: 'Skin service <no-reply@skins.test>',
    redisUrl: null,
    logLevel: 'silent',
    owner: null,
    trustProxy: false,
    textureStore: 'files',
    maxTextureBytes: 1024 * 1024,
    maxSkinWidth: 1024,
    renderCacheBytes: 16 * 1024 * 1024,
    workers: 1,
    metricsToken: null,
    serverName: 'Test skins',
    offlineSkins: true,
    userCapes: false,
    libraryReview: false,
    gravitToken: null,
    gravitTokenTtlSeconds: 3600,
    registration: 'open',
    discord: null,
    profiles: DEFAULT_PROFILE_SETTINGS,
    yggdrasilConnect: true,
    gameServices: true,
    friends: false,
    fallback: null,
    oidcProviders: [],
    ...overrides,
  };
}

export async function startService(kind: DatabaseKind, options: ServiceOptions = {}): Promise<TestService> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(kind));
  const ownMailbox = !options.mailbox;
  const mailbox = options.mailbox ?? (await startSmtpServer());
  const settings = testSettings({ database: database.settings, smtpUrl: mailbox.url, ...options.settings });
  const build = async () => {
    const built = await buildApp(settings, {
      logger: false,
      clock: options.clock,
      // Helpers building the pages side by side each point TEST_WEB_DIR at their own build (npm run build:web -- --outDir).
      webDir: process.env.TEST_WEB_DIR || undefined,
      ...options.app,
      mailWorker: { pollIntervalMs: 50, retryBaseMs: 100, maxRetryDelayMs: 400, ...options.app?.mailWorker },
    });
    await built.ready();
    return built;
  };
  let app = await build();

  const send: Send = async ({ method, url, headers, payload, ip }) => {
    const response = await app.inject({ method: method as 'GET', url, remoteAddress: ip ?? '127.0.0.1', headers, payload });
    return replyOf(response.statusCode, response.headers, response.rawPayload);
  };
  const client = clientFor(send, mailbox);
  const db = openDatabase(settings.database);
  return {
    ...client,
    get app() {
      return app;
    },
    async restart() {
      await app.close();
      app = await build();
    },
    settings,
    database,
    mailbox,
    db,
    async close() {
      await app.close();
      await db.destroy();
      if (ownMailbox) await mailbox.close();
      if (ownDatabase) await database.drop();
    },
  };
}

/** The service in a process of its own, started as `npm start` starts it, with the settings as environment variables. */
export async function startServiceProcess(options: {
  database: TestDatabase;
  mailbox: Mailbox;
  settings?: Partial<Settings>;
}): Promise<ServiceClient> {
  const { database, mailbox } = options;
  const port = await freePort();
  // Behind a "proxy" (the test), so that a test can choose the client address with X-Forwarded-For.
  const settings = testSettings({ database: database.settings, smtpUrl: mailbox.url, port, trustProxy: true, ...options.settings });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH, ...environmentOf(settings) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the service process stopped (${child.exitCode}): ${output}`);
        return (await fetch(`${base}/readyz`).catch(() => null))?.status === 200;
      },
      'the service process to be ready',
      // Each process compiles the service with tsx first: four at once beside the browser tests took over 30 s once.
      90_000,
    );
  } catch (error) {
    child.kill('SIGKILL'); // a process that never became ready must not outlive the test
    throw error;
  }

  const send: Send = async ({ method, url, headers, payload, ip }) => {
    const response = await fetch(base + url, {
      method,
      headers: { ...headers, ...(ip ? { 'x-forwarded-for': ip } : {}) },
      body: payload === undefined ? undefined : new Uint8Array(Buffer.from(payload)),
    });
    return replyOf(response.status, Object.fromEntries(response.headers), Buffer.from(await response.arrayBuffer()));
  };
  const db = openDatabase(settings.database);
  return {
    ...clientFor(send, mailbox),
    settings,
    database,
    mailbox,
    db,
    async close() {
      child.kill('SIGTERM');
      const code = await exited;
      await db.destroy();
      if (code !== 0) throw new Error(`the service process stopped with ${code}: ${output}`);
    },
  };
}

/** The environment variables that give a process these settings (the inverse of settings.ts). */
function environmentOf(settings: Settings): Record<string, string> {
  const { database, owner } = settings;
  return {
    PORT: String(settings.port),
    HOST: settings.host,
    PUBLIC_URL: settings.publicUrl,
    DATA_DIR: settings.dataDir,
    DATABASE_URL: database.kind === 'postgres' ? database.url : `sqlite:${database.file}`,
    JWT_SECRET: settings.jwtSecret,
    TOTP_KEY: settings.totpKey,
    JWT_TTL: String(settings.jwtTtlSeconds),
    MAIL_FROM: settings.mailFrom,
    LOG_LEVEL: settings.logLevel,
    TRUST_PROXY: String(settings.trustProxy),
    TEXTURE_STORE: settings.textureStore,
    MAX_TEXTURE_BYTES: String(settings.maxTextureBytes),
    MAX_SKIN_WIDTH: String(settings.maxSkinWidth),
    RENDER_CACHE_MB: String(Math.ceil(settings.renderCacheBytes / (1024 * 1024))),
    WORKERS: String(settings.workers),
    REGISTRATION: settings.registration,
    PROFILE_NAME_RULE: settings.profiles.nameRule,
    MAX_PROFILES: String(settings.profiles.maxProfiles),
    PROFILE_UUID: settings.profiles.uuid,
    PROFILE_RENAME: String(settings.profiles.rename),
    YGGDRASIL_CONNECT: String(settings.yggdrasilConnect),
    USER_CAPES: String(settings.userCapes),
    GAME_SERVICES: String(settings.gameServices),
    FRIENDS: String(settings.friends),
    LIBRARY_REVIEW: String(settings.libraryReview),
    ...(settings.smtpUrl ? { SMTP_URL: settings.smtpUrl } : {}),
    ...(settings.redisUrl ? { REDIS_URL: settings.redisUrl } : {}),
    ...(settings.metricsToken ? { METRICS_TOKEN: settings.metricsToken } : {}),
    ...(settings.gravitToken ? { GRAVIT_TOKEN: settings.gravitToken, GRAVIT_TOKEN_TTL: String(settings.gravitTokenTtlSeconds) } : {}),
    ...(settings.discord
      ? {
          DISCORD_CLIENT_ID: settings.discord.clientId,
          DISCORD_CLIENT_SECRET: settings.discord.clientSecret,
          DISCORD_URL: settings.discord.url,
        }
      : {}),
    ...(owner ? { OWNER_USERNAME: owner.username, OWNER_MAIL: owner.mail, OWNER_PASSWORD: owner.password } : {}),
  };
}

/** One HTTP exchange with the service: injected into an app in this process, or sent over a socket. */
type Send = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  ip?: string;
}) => Promise<Reply>;

function replyOf(status: number, headers: Reply['headers'], raw: Buffer): Reply {
  const isJson = String(headers['content-type'] ?? '').includes('json');
  return { status, headers, body: isJson ? JSON.parse(raw.toString('utf8')) : undefined, raw };
}

/** The calls and multi-step helpers tests use, over either kind of exchange. */
function clientFor(send: Send, mailbox: Mailbox): Pick<ServiceClient, 'call' | 'upload' | 'registerPlayer' | 'ownerToken'> {
  const call: ServiceClient['call'] = (method, url, { body, token, ip, headers } = {}) =>
    send({
      method,
      url,
      ip,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  const upload: ServiceClient['upload'] = (url, token, fields, files, method = 'POST') => {
    const { payload, contentType } = multipartBody(fields, files);
    return send({
      method,
      url,
      payload,
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  };

  const registerPlayer: ServiceClient['registerPlayer'] = async (input = {}) => {
    const username = input.username ?? uniqueName();
    const mail = input.mail ?? `${username.toLowerCase()}@example.org`;
    const password = input.password ?? 'correct horse battery';
    const ip = randomAddress();
    const registered = await call('POST', '/api/auth/register', { body: { mail, password }, ip });
    if (registered.status !== 200) throw new Error(`register: ${registered.status} ${registered.body?.msg}`);
    const code = codeIn(await mailbox.waitFor(mailTo(mail)));
    const confirmed = await call('POST', '/api/auth/confirm', { body: { code }, ip });
    if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.body?.msg}`);
    const login = await call('POST', '/api/auth/login', { body: { username: mail, password }, ip });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body?.msg}`);
    const token = login.body.data.jwt as string;
    const finished = await call('POST', '/api/home/registerfinish', { body: { username, password }, token, ip });
    if (finished.status !== 200) throw new Error(`registerfinish: ${finished.status} ${finished.body?.msg}`);
    return { token, mail, username, password };
  };

  const ownerToken = async () => {
    const login = await call('POST', '/api/auth/login', { body: { username: OWNER.username, password: OWNER.password } });
    if (login.status !== 200) throw new Error(`owner login: ${login.status} ${login.body?.msg}`);
    return login.body.data.jwt as string;
  };

  return { call, upload, registerPlayer, ownerToken };
}
