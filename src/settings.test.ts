import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, it } from 'node:test';
import { loadSettings, parseSettings, readEnvironment, SettingsError, settingsWarnings } from './settings.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    parseSettings(env);
  } catch (error) {
    assert.ok(error instanceof SettingsError);
    return error.problems.join('\n');
  }
  assert.fail('expected the settings to be refused');
};

describe('settings', () => {
  it('has the defaults of contract section 8', () => {
    const settings = parseSettings({});
    assert.equal(settings.port, 8080);
    assert.equal(settings.host, '0.0.0.0');
    assert.equal(settings.publicUrl, 'http://localhost:8080');
    assert.match(settings.dataDir, /data$/);
    assert.equal(settings.database.kind, 'sqlite');
    assert.equal(settings.jwtTtlSeconds, 86400);
    assert.equal(settings.smtpUrl, null);
    assert.equal(settings.redisUrl, null);
    assert.equal(settings.owner, null);
    assert.equal(settings.workers, 1);
    assert.equal(settings.metricsToken, null);
    assert.equal(settings.gravitToken, null, 'the GravitLauncher API is off');
    assert.equal(settings.gravitTokenTtlSeconds, 3600);
    assert.equal(settings.registration, 'open', 'anyone may register');
  });

  it('reads every setting', () => {
    const settings = parseSettings({
      PORT: '9000',
      PUBLIC_URL: 'https://skins.example.org/',
      DATABASE_URL: 'postgres://app@db:5432/skins',
      JWT_SECRET: 's'.repeat(32),
      JWT_TTL: '2h',
      SMTP_URL: 'smtps://user:pass@mail.example.org:465',
      MAIL_FROM: 'Skins <skins@example.org>',
      REDIS_URL: 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'warn',
      OWNER_USERNAME: 'Owner',
      OWNER_MAIL: 'owner@example.org',
      OWNER_PASSWORD: 'owner password',
      WORKERS: '4',
      METRICS_TOKEN: 'scrape-token-of-some-length',
      GRAVIT_TOKEN: 'launchserver-bearer-token',
      GRAVIT_TOKEN_TTL: '30m',
      REGISTRATION: 'invite',
    });
    assert.equal(settings.port, 9000);
    assert.equal(settings.publicUrl, 'https://skins.example.org');
    assert.deepEqual(settings.database, { kind: 'postgres', url: 'postgres://app@db:5432/skins' });
    assert.equal(settings.jwtTtlSeconds, 7200);
    assert.equal(settings.smtpUrl, 'smtps://user:pass@mail.example.org:465');
    assert.deepEqual(settings.owner, { username: 'Owner', mail: 'owner@example.org', password: 'owner password' });
    assert.equal(settings.workers, 4);
    assert.equal(settings.metricsToken, 'scrape-token-of-some-length');
    assert.equal(settings.gravitToken, 'launchserver-bearer-token');
    assert.equal(settings.gravitTokenTtlSeconds, 1800);
    assert.equal(settings.registration, 'invite');
  });

  it('names every bad value', () => {
    const problems = problemsOf({ PORT: 'eighty', JWT_SECRET: 'short', JWT_TTL: 'forever', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    for (const name of ['PORT', 'JWT_SECRET', 'JWT_TTL', 'DATABASE_URL', 'LOG_LEVEL']) assert.match(problems, new RegExp(`^${name}:`, 'm'));
    assert.match(problemsOf({ PUBLIC_URL: 'skins.example.org' }), /PUBLIC_URL/);
    assert.match(problemsOf({ SMTP_URL: 'mail.example.org' }), /SMTP_URL/);
    assert.match(problemsOf({ OWNER_USERNAME: 'Owner' }), /OWNER_USERNAME, OWNER_MAIL, OWNER_PASSWORD/);
    assert.match(problemsOf({ WORKERS: '0' }), /^WORKERS: must be a whole number/m);
    assert.match(problemsOf({ WORKERS: '2' }), /^WORKERS: more than 1 needs REDIS_URL/m);
    assert.equal(parseSettings({ WORKERS: '2', REDIS_URL: 'redis://127.0.0.1:6379' }).workers, 2);
    assert.match(problemsOf({ METRICS_TOKEN: 'short' }), /^METRICS_TOKEN:/m);
    const shortBearer = problemsOf({ GRAVIT_TOKEN: 'fifteen-bytes!!' });
    assert.match(shortBearer, /^GRAVIT_TOKEN: must be at least 16 bytes long \(it has 15\)$/m);
    assert.doesNotMatch(shortBearer, /fifteen/, 'the secret is not repeated');
    assert.match(problemsOf({ GRAVIT_TOKEN_TTL: 'an hour' }), /^GRAVIT_TOKEN_TTL: must be a whole number of seconds/m);
    assert.match(problemsOf({ GRAVIT_TOKEN_TTL: '59s' }), /^GRAVIT_TOKEN_TTL: must be at least one minute/m);
    assert.match(problemsOf({ GRAVIT_TOKEN_TTL: '31d' }), /^GRAVIT_TOKEN_TTL: must be at most 30 days/m);
    assert.equal(parseSettings({ JWT_TTL: '3650d' }).jwtTtlSeconds, 3650 * 86400, 'JWT_TTL keeps no upper bound');
    assert.match(problemsOf({ REGISTRATION: 'invitation' }), /^REGISTRATION: must be one of open, invite, closed/m);
  });

  it('turns the Discord login on with both of its settings, and names a bad one without repeating the secret', () => {
    assert.equal(parseSettings({}).discord, null, 'off by default');
    const discord = { DISCORD_CLIENT_ID: '1234567890123456789', DISCORD_CLIENT_SECRET: 'discord-client-secret' };
    assert.deepEqual(parseSettings(discord).discord, {
      clientId: '1234567890123456789',
      clientSecret: 'discord-client-secret',
      url: 'https://discord.com',
    });
    assert.equal(parseSettings({ ...discord, DISCORD_URL: 'http://127.0.0.1:9999/' }).discord?.url, 'http://127.0.0.1:9999');
    const half = problemsOf({ DISCORD_CLIENT_SECRET: 'discord-client-secret' });
    assert.match(half, /^DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET: set both/m);
    assert.doesNotMatch(half, /discord-client-secret/);
    assert.match(problemsOf({ ...discord, DISCORD_CLIENT_ID: 'my-app' }), /^DISCORD_CLIENT_ID: .*digits only/m);
    assert.match(problemsOf({ ...discord, DISCORD_URL: 'discord.com' }), /^DISCORD_URL: must be an absolute http/m);
  });

  it('warns when links would say localhost while other machines can connect', () => {
    // A DATA_DIR of the test's own: ./data of an earlier run may be open to others, which is warned of too.
    const dataDir = mkdtempSync(join(tmpdir(), 'settings-warn-'));
    const warned = (env: Record<string, string>) => settingsWarnings(parseSettings({ DATA_DIR: dataDir, ...env })).join('\n');
    assert.match(warned({}), /PUBLIC_URL is not set.*http:\/\/localhost:8080.*HOST=0\.0\.0\.0/);
    assert.match(warned({ HOST: '::' }), /PUBLIC_URL is not set/);
    assert.equal(warned({ HOST: '127.0.0.1' }), '', 'only this machine connects: localhost is right');
    assert.equal(warned({ PUBLIC_URL: 'https://skins.example.org' }), '');
  });

  it('creates DATA_DIR 0700 whatever the umask, and warns of one it finds open to other users without changing it', () => {
    const parent = mkdtempSync(join(tmpdir(), 'settings-data-'));
    const saved = { dataDir: process.env.DATA_DIR, umask: process.umask(0o022) };
    try {
      process.env.DATA_DIR = join(parent, 'new', 'data');
      const created = loadSettings();
      assert.equal(statSync(created.dataDir).mode & 0o777, 0o700);
      assert.deepEqual(settingsWarnings({ ...created, host: '127.0.0.1' }), []);

      const open = join(parent, 'open');
      mkdirSync(open, { mode: 0o755 });
      chmodSync(open, 0o755);
      process.env.DATA_DIR = open;
      const found = loadSettings();
      assert.match(settingsWarnings({ ...found, host: '127.0.0.1' }).join('\n'), /^DATA_DIR .*open.* \(mode 755\).*chmod 700/);
      assert.equal(statSync(open).mode & 0o777, 0o755, 'left as the operator made it');
    } finally {
      process.umask(saved.umask);
      if (saved.dataDir === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved.dataDir;
    }
  });

  it('takes TOTP_KEY of at least 32 bytes, else generates one into DATA_DIR once and keeps it', () => {
    assert.equal(parseSettings({ TOTP_KEY: 'k'.repeat(32) }).totpKey, 'k'.repeat(32));
    assert.match(problemsOf({ TOTP_KEY: 'short' }), /^TOTP_KEY: must be at least 32 bytes long \(it has 5\)$/m);
    const dataDir = mkdtempSync(join(tmpdir(), 'settings-totp-'));
    const saved = process.env.DATA_DIR;
    process.env.DATA_DIR = dataDir;
    try {
      const first = loadSettings();
      assert.ok(Buffer.byteLength(first.totpKey) >= 32);
      assert.notEqual(first.totpKey, first.jwtSecret, 'a key of its own');
      assert.equal(readFileSync(join(dataDir, 'totp-key'), 'utf8').trim(), first.totpKey);
      assert.equal(statSync(join(dataDir, 'totp-key')).mode & 0o777, 0o600, 'readable by the service only');
      assert.equal(loadSettings().totpKey, first.totpKey, 'the same key after a restart');
    } finally {
      if (saved === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = saved;
    }
  });

  it('reads a .env file, and the environment wins over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skinservice-env-'));
    writeFileSync(join(dir, '.env'), 'PORT=9100\nLOG_LEVEL=debug\n');
    const env = readEnvironment(dir, { LOG_LEVEL: 'error' });
    assert.equal(env.PORT, '9100');
    assert.equal(env.LOG_LEVEL, 'error');
    assert.equal(readFileSync(join(dir, '.env'), 'utf8').includes('9100'), true);
  });
});

describe('.env.example', () => {
  const root = join(import.meta.dirname, '..');
  /** The `# NAME=value` lines of .env.example, the `#` taken off, read as a .env file is. */
  const listed = parseEnv(
    readFileSync(join(root, '.env.example'), 'utf8')
      .split('\n')
      .filter((line) => /^# [A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => line.slice(2))
      .join('\n'),
  );
  /** Every variable settings.ts reads: text('NAME'), wholeNumber('NAME', …), lifetime('NAME', …) and env.NAME. */
  const read = new Set(
    [
      ...readFileSync(join(root, 'src/settings.ts'), 'utf8').matchAll(/(?:\b(?:text|wholeNumber|lifetime)\(|\benv\.)'?([A-Z][A-Z0-9_]*)/g),
    ].map((match) => match[1]!),
  );

  it('lists every setting the service reads, and nothing else', () => {
    assert.ok(read.size >= 30, `found only ${[...read].join(', ')} in settings.ts`);
    assert.deepEqual(
      [...read].filter((name) => !(name in listed)),
      [],
      'read by src/settings.ts, missing from .env.example',
    );
    assert.deepEqual(
      Object.keys(listed).filter((name) => !read.has(name)),
      [],
      'in .env.example, not read by src/settings.ts',
    );
  });

  it('shows the defaults the service has', () => {
    const defaults = parseSettings({});
    for (const [name, value] of Object.entries(listed)) {
      assert.deepEqual(parseSettings({ [name]: value }), defaults, `${name}=${value} is not the default`);
    }
  });
});
