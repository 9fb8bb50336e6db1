import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, it } from 'node:test';
import { isSecretSetting, loadSettings, parseSettings, readEnvironment, SettingsError, settingsWarnings } from './settings.ts';

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

  it('reads the fallback sources in order, Mojang first, and refuses what would be accepted and ignored', () => {
    assert.equal(parseSettings({}).fallback, null);
    const fallback = parseSettings({
      MOJANG_FALLBACK: 'auth',
      MOJANG_SESSION_URL: 'http://127.0.0.1:9999/',
      FALLBACK_SERVERS: 'Ely.by=https://authserver.ely.by/api/authlib-injector, https://littleskin.cn/api/yggdrasil/',
    }).fallback;
    assert.deepEqual(fallback, {
      mode: 'auth',
      cacheTtlSeconds: 600,
      premiumReclaim: false,
      premiumImport: false,
      sources: [
        {
          kind: 'mojang',
          name: 'Mojang',
          sessionUrl: 'http://127.0.0.1:9999',
          apiUrl: 'https://api.mojang.com',
          texturesHost: 'textures.minecraft.net',
        },
        { kind: 'authlib-injector', name: 'Ely.by', root: 'https://authserver.ely.by/api/authlib-injector/' },
        { kind: 'authlib-injector', name: null, root: 'https://littleskin.cn/api/yggdrasil/' },
      ],
    });
    const other = parseSettings({ MOJANG_FALLBACK: 'auth', FALLBACK_MOJANG: 'false', FALLBACK_SERVERS: 'http://other.test/api/yggdrasil' });
    assert.deepEqual(other.fallback?.sources, [{ kind: 'authlib-injector', name: null, root: 'http://other.test/api/yggdrasil/' }]);
    const skins = parseSettings({ MOJANG_FALLBACK: 'skins', PREMIUM_RECLAIM: 'true', PREMIUM_IMPORT: 'true' }).fallback;
    assert.deepEqual([skins?.mode, skins?.premiumReclaim, skins?.premiumImport], ['skins', true, true]);
    assert.match(problemsOf({ MOJANG_FALLBACK: 'on' }), /^MOJANG_FALLBACK: must be off, skins or auth/m);
    assert.match(
      problemsOf({ FALLBACK_SERVERS: 'http://other.test/' }),
      /^FALLBACK_SERVERS: applies only with MOJANG_FALLBACK=skins or auth/m,
    );
    assert.match(problemsOf({ PREMIUM_IMPORT: 'true' }), /^PREMIUM_IMPORT: applies only with MOJANG_FALLBACK=skins or auth/m);
    assert.match(problemsOf({ MOJANG_FALLBACK: 'auth', PREMIUM_RECLAIM: 'yes' }), /^PREMIUM_RECLAIM: must be true or false/m);
    assert.match(problemsOf({ MOJANG_FALLBACK: 'auth', FALLBACK_SERVERS: 'ely.by' }), /^FALLBACK_SERVERS: each entry must be/m);
    assert.match(problemsOf({ MOJANG_FALLBACK: 'auth', FALLBACK_MOJANG: 'false' }), /^FALLBACK_SERVERS: .*needs at least one/m);
    assert.match(problemsOf({ MOJANG_FALLBACK: 'auth', MOJANG_CACHE_TTL: '0' }), /^MOJANG_CACHE_TTL: must be/m);
  });

  it('reads each OpenID Connect provider of OIDC_PROVIDERS from its own settings, with the defaults of contract 26', () => {
    assert.deepEqual(parseSettings({}).oidcProviders, []);
    const settings = parseSettings({
      OIDC_PROVIDERS: 'my-keycloak, google',
      OIDC_MY_KEYCLOAK_ISSUER: 'https://id.example.org/realms/craft/',
      OIDC_MY_KEYCLOAK_CLIENT_ID: 'skins',
      OIDC_MY_KEYCLOAK_CLIENT_SECRET: 'keycloak-secret',
      OIDC_MY_KEYCLOAK_NAME: 'Craft community',
      OIDC_MY_KEYCLOAK_REGISTER: 'true',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com',
      OIDC_GOOGLE_SCOPES: 'email',
    });
    assert.deepEqual(settings.oidcProviders, [
      {
        id: 'my-keycloak',
        issuer: 'https://id.example.org/realms/craft',
        clientId: 'skins',
        clientSecret: 'keycloak-secret',
        name: 'Craft community',
        scopes: 'openid profile email',
        register: true,
      },
      {
        id: 'google',
        issuer: 'https://accounts.google.com',
        clientId: 'abc.apps.googleusercontent.com',
        clientSecret: null,
        name: 'google',
        scopes: 'openid email',
        register: false,
      },
    ]);
    assert.match(problemsOf({ OIDC_PROVIDERS: 'Bad_Id' }), /^OIDC_PROVIDERS: .*no provider id/m);
    assert.match(problemsOf({ OIDC_PROVIDERS: 'x', OIDC_X_CLIENT_ID: 'c' }), /^OIDC_X_ISSUER: must be/m);
    assert.match(
      problemsOf({ OIDC_PROVIDERS: 'x', OIDC_X_ISSUER: 'https://id.example', OIDC_X_CLIENT_ID: 'c', OIDC_X_REGISTER: 'yes' }),
      /^OIDC_X_REGISTER: must be true or false/m,
    );
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

describe('secret settings from files (NAME_FILE, as Docker and Kubernetes mount secrets)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'settings-secrets-'));
  let files = 0;
  const secretFile = (content: string) => {
    const path = join(folder, `secret-${(files += 1)}`);
    writeFileSync(path, content);
    return path;
  };

  it('reads each secret setting of contract section 23 from the file NAME_FILE names, one trailing newline removed', () => {
    const settings = parseSettings({
      JWT_SECRET_FILE: secretFile(`${'j'.repeat(40)}\n`),
      TOTP_KEY_FILE: secretFile('t'.repeat(40)),
      DATABASE_URL_FILE: secretFile('postgres://skins:pass@db:5432/skins\n'),
      REDIS_URL_FILE: secretFile('redis://:pass@cache:6379\r\n'),
      SMTP_URL_FILE: secretFile('smtps://user:pass@mail.example.org:465\n'),
      GRAVIT_TOKEN_FILE: secretFile('launchserver-bearer-token\n'),
      METRICS_TOKEN_FILE: secretFile('scrape-token-of-some-length\n'),
      DISCORD_CLIENT_ID: '1234567890123456789',
      DISCORD_CLIENT_SECRET_FILE: secretFile('discord-client-secret\n'),
      OWNER_USERNAME: 'Owner',
      OWNER_MAIL: 'owner@example.org',
      // Kept as written but for the one newline: a password may end in a space or a newline of its own.
      OWNER_PASSWORD_FILE: secretFile('owner password \n\n'),
    });
    assert.equal(settings.jwtSecret, 'j'.repeat(40));
    assert.equal(settings.totpKey, 't'.repeat(40));
    assert.deepEqual(settings.database, { kind: 'postgres', url: 'postgres://skins:pass@db:5432/skins' });
    assert.equal(settings.redisUrl, 'redis://:pass@cache:6379');
    assert.equal(settings.smtpUrl, 'smtps://user:pass@mail.example.org:465');
    assert.equal(settings.gravitToken, 'launchserver-bearer-token');
    assert.equal(settings.metricsToken, 'scrape-token-of-some-length');
    assert.equal(settings.discord?.clientSecret, 'discord-client-secret');
    assert.equal(settings.owner?.password, 'owner password \n');
  });

  it('takes NAME_FILE for every secret by its name, later client secrets included, and for no other setting', () => {
    for (const name of ['OWNER_PASSWORD', 'JWT_SECRET', 'TOTP_KEY', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'GRAVIT_TOKEN']) {
      assert.ok(isSecretSetting(name), name);
    }
    for (const name of ['DISCORD_CLIENT_SECRET', 'OIDC_GOOGLE_CLIENT_SECRET', 'METRICS_TOKEN']) assert.ok(isSecretSetting(name), name);
    for (const name of ['PUBLIC_URL', 'DISCORD_URL', 'GRAVIT_TOKEN_TTL', 'DATA_DIR', 'DISCORD_CLIENT_ID', 'OWNER_MAIL']) {
      assert.ok(!isSecretSetting(name), name);
    }
    // A path in PUBLIC_URL_FILE is no address, and a variable of another program named *_FILE is left alone.
    const settings = parseSettings({ PUBLIC_URL_FILE: secretFile('https://skins.example.org\n'), SSL_CERT_FILE: '/nowhere' });
    assert.equal(settings.publicUrl, 'http://localhost:8080');
  });

  it('refuses a secret given both ways, with a sentence naming both and neither value', () => {
    const problems = problemsOf({ JWT_SECRET: 'a'.repeat(40), JWT_SECRET_FILE: secretFile('b'.repeat(40)) });
    assert.match(
      problems,
      /^JWT_SECRET and JWT_SECRET_FILE: both are set; give the value once, either in JWT_SECRET or in the file JWT_SECRET_FILE names$/m,
    );
    assert.doesNotMatch(problems, /aaaa|bbbb/);
    assert.match(
      problemsOf({ OWNER_PASSWORD: 'x', OWNER_PASSWORD_FILE: secretFile('y') }),
      /^OWNER_PASSWORD and OWNER_PASSWORD_FILE: both are set/m,
    );
    // An empty variable is an unset one (a compose file's `JWT_SECRET: ${JWT_SECRET:-}`).
    assert.equal(parseSettings({ JWT_SECRET: '', JWT_SECRET_FILE: secretFile('c'.repeat(40)) }).jwtSecret, 'c'.repeat(40));
  });

  it('names the NAME_FILE that cannot be read, and why, without a value', () => {
    assert.match(problemsOf({ JWT_SECRET_FILE: join(folder, 'missing') }), /^JWT_SECRET_FILE: names no file \(got ".*missing"\)$/m);
    assert.match(problemsOf({ REDIS_URL_FILE: folder }), /^REDIS_URL_FILE: must name a file/m);
    assert.match(problemsOf({ TOTP_KEY_FILE: secretFile('\n') }), /^TOTP_KEY_FILE: names an empty file/m);
    assert.match(
      problemsOf({ GRAVIT_TOKEN_FILE: secretFile('x'.repeat(70_000)) }),
      /^GRAVIT_TOKEN_FILE: must name a file holding only the value \(this one has 70000 bytes\)/m,
    );
    const short = problemsOf({ JWT_SECRET_FILE: secretFile('tiny-secret\n'), SMTP_URL_FILE: secretFile('mail.example.org:25\n') });
    assert.match(short, /^JWT_SECRET: must be at least 32 bytes long$/m);
    assert.match(short, /^SMTP_URL: must be smtp:/m);
    assert.doesNotMatch(short, /tiny-secret|mail\.example\.org/, 'a secret stays out of the message');
  });
});

describe('DATA_DIR the service cannot write to', () => {
  const root = join(import.meta.dirname, '..');
  /**
   * loadSettings() in a process that the folder's permissions bind: as root (CI), one without the capabilities that
   * let root write anywhere; as anyone else, this very user.
   */
  const loadSettingsWithout = (dataDir: string) => {
    const load = `import('./src/settings.ts').then((m) => m.loadSettings()).then(() => console.log('started'), (e) => console.log(e.message))`;
    const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', load];
    const command = process.getuid!() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', ...node] : node;
    const result = spawnSync(command[0]!, command.slice(1), { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
    return `${result.stdout}${result.stderr}`;
  };
  /** A folder of another user (as root) or one this user may not write (otherwise). */
  const foreignFolder = (path: string) => {
    mkdirSync(path, { recursive: true, mode: 0o755 });
    if (process.getuid!() === 0) chownSync(path, 12345, 12345);
    else chmodSync(path, 0o555);
    return path;
  };
  const ids = () => (process.getuid!() === 0 ? '0:0' : `${process.getuid!()}:${process.getgid!()}`);

  it('refuses the start with the chown to run, for the folder and for a file in it', () => {
    const parent = mkdtempSync(join(tmpdir(), 'settings-owner-'));
    const folder = foreignFolder(join(parent, 'data'));
    const refused = loadSettingsWithout(folder);
    assert.ok(refused.includes(`DATA_DIR: ${folder} is not writable by the user this service runs as`), refused);
    assert.ok(refused.includes(`as root, run \`chown -R ${ids()} ${folder}\``), refused);

    const mine = join(parent, 'mine');
    assert.match(loadSettingsWithout(mine), /^started$/m, 'a folder it creates itself');
    const database = join(mine, 'skinservice.sqlite');
    writeFileSync(database, '');
    if (process.getuid!() === 0) chownSync(database, 12345, 12345);
    else chmodSync(database, 0o400);
    assert.ok(loadSettingsWithout(mine).includes(`DATA_DIR: ${mine} holds skinservice.sqlite, which is not writable`));

    const unmade = join(foreignFolder(join(parent, 'locked')), 'data');
    assert.ok(loadSettingsWithout(unmade).includes(`DATA_DIR: ${unmade} cannot be created by the user this service runs as`));
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
  /** Every variable settings.ts reads: text('NAME'), wholeNumber('NAME', …), lifetime('NAME', …), flag('NAME') and env.NAME. */
  const read = new Set(
    [
      ...readFileSync(join(root, 'src/settings.ts'), 'utf8').matchAll(
        /(?:\b(?:text|wholeNumber|lifetime|flag)\(|\benv\.)'?([A-Z][A-Z0-9_]*)/g,
      ),
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
