// Builds the whole service through the composition root, on a test database and the in-process SMTP server.
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
import type { Settings } from '../../src/settings.ts';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases.ts';
import { multipartBody, type FormFile } from './multipart.ts';
import { codeIn, mailTo, startSmtpServer, type Mailbox } from './smtp.ts';

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

export interface TestService {
  /** The running app; restart() replaces it. */
  readonly app: FastifyInstance;
  settings: Settings;
  database: TestDatabase;
  mailbox: Mailbox;
  /** A connection of the test's own to the service's database, to check what was (not) written. */
  db: Kysely<Database>;
  call(method: string, url: string, options?: CallOptions): Promise<Reply>;
  /** A multipart/form-data POST, as a browser form sends it. */
  upload(url: string, token: string | undefined, fields: Record<string, string | string[]>, files: FormFile[]): Promise<Reply>;
  /** Stops the app and starts a new one on the same database and mailbox, as a service restart would. */
  restart(): Promise<void>;
  /** Logs in the OWNER (start the service with `settings: { owner: OWNER }`) and returns the token. */
  ownerToken(): Promise<string>;
  /** Registration steps 1-3 through the API, reading the code from the mail; returns a logged-in player. */
  registerPlayer(input?: { mail?: string; username?: string; password?: string }): Promise<{ token: string; mail: string; username: string; password: string }>;
  close(): Promise<void>;
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
      ...options.app,
      mailWorker: { pollIntervalMs: 50, retryBaseMs: 100, maxRetryDelayMs: 400, ...options.app?.mailWorker },
    });
    await built.ready();
    return built;
  };
  let app = await build();

  const call: TestService['call'] = async (method, url, { body, token, ip, headers } = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      remoteAddress: ip ?? '127.0.0.1',
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, headers: response.headers, body: isJson ? response.json() : undefined, raw: response.rawPayload };
  };

  const upload: TestService['upload'] = async (url, token, fields, files) => {
    const { payload, contentType } = multipartBody(fields, files);
    const response = await app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: response.statusCode, headers: response.headers, body: response.json(), raw: response.rawPayload };
  };

  const registerPlayer: TestService['registerPlayer'] = async (input = {}) => {
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

  const db = openDatabase(settings.database);
  return {
    ownerToken,
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
    call,
    upload,
    registerPlayer,
    async close() {
      await app.close();
      await db.destroy();
      if (ownMailbox) await mailbox.close();
      if (ownDatabase) await database.drop();
    },
  };
}
