// The operator CLI: `npm run cli -- <command>`. It works on the database the server's settings name (the same
// environment and .env), applies the same rules as the admin API, and writes its changes to the audit log as `cli`.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Profiles } from '../accounts/profile.ts';
import { createAccount } from '../accounts/create-account.ts';
import { systemClock } from '../clock.ts';
import { migrateToLatest, openDatabase, sqliteConnection } from '../database/connect.ts';
import { ApiError } from '../http/envelope.ts';
import { MemoryCounterStore, RateLimiter } from '../ratelimit/limiter.ts';
import { ImportedPasswordChecks } from '../accounts/imported-password-checks.ts';
import { LoginFailures } from '../accounts/login-failures.ts';
import { loadSettings, SettingsError } from '../settings.ts';
import { SecretBox } from '../two-factor/secret-box.ts';
import { TwoFactorService } from '../two-factor/service.ts';
import { OPERATOR } from '../audit/acting.ts';
import { UserAdmin } from './service.ts';
import { ImportOptionError, importFlags, importOptionsOf } from '../import/options.ts';
import { checkOptions, importUsage } from '../import/readers.ts';
import { runImport } from '../import/run.ts';
import { SourceError } from '../import/source-db.ts';
import { imageCacheBudgets } from '../images/service.ts';
import { TextureLibrary } from '../textures/library.ts';
import { textureStoreOf } from '../textures/store.ts';
import { copyDatabase, CopyError, targetOf } from './copy-database.ts';

// Out of the command line, which every user of the machine can read in the process list.
const PASSWORD_VARIABLE = 'SKINSERVICE_PASSWORD';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-user --username NAME --mail ADDRESS PASSWORD-SOURCE [--perms LEVEL]
      a finished, verified account; LEVEL -1 (banned), 0 (player, default), 1, 2 or 3 (owner)
  set-perms USER LEVEL
  reset-password USER [PASSWORD-SOURCE]
      without a password a random one is made and printed; every session of USER is revoked
  list-users [--search TEXT] [--limit N] [--offset N]
  turn-off-2fa USER
      turns off USER's two-factor login (a lost phone and recovery codes), also an owner's; USER is mailed
  backup FILE
      an online copy of the SQLite database into FILE, consistent while the service keeps running
      (on PostgreSQL use pg_dump; see docs/operations.md)
${importUsage()}
  copy-database --to DATABASE_URL
      copies the whole database into an empty one, e.g. SQLite to PostgreSQL or back (docs/operations.md);
      DATABASE_URL: postgres://user@host:port/database (the password in PGPASSWORD) or sqlite:PATH

USER is a user id, a player UUID or a username. The database is the one the server's settings name.
PASSWORD-SOURCE is one of:
  --password-stdin                  the first line of standard input
  ${PASSWORD_VARIABLE}=PASSWORD  in the environment
  --password PASSWORD               on the command line, where other users of the machine can see it (ps)`;

/** The password the operator gave: --password-stdin, else --password, else the environment; undefined for none. */
async function givenPassword(options: { password?: string; 'password-stdin'?: boolean }): Promise<string | undefined> {
  if (options['password-stdin']) {
    if (options.password !== undefined) throw new UsageError('give --password or --password-stdin, not both');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    // Only the first line: `echo`, a here-string and a typed line all end the password with a line break.
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
  }
  return options.password ?? process.env[PASSWORD_VARIABLE];
}

class UsageError extends Error {}

function wholeNumber(value: string | undefined, what: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined || !/^-?\d+$/.test(value)) throw new UsageError(`${what} must be a whole number`);
  return Number(value);
}

export async function runCli(argv: string[], print: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    print(USAGE);
    return;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      mail: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      perms: { type: 'string' },
      search: { type: 'string' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      ...importFlags(),
      to: { type: 'string' },
    },
  });
  const settings = loadSettings();
  const db = openDatabase(settings.database);
  try {
    await migrateToLatest(db);
    const admin = new UserAdmin(db, new Profiles(db, settings.profiles.maxProfiles), systemClock, () => {}, settings.profiles);
    switch (command) {
      case 'create-user': {
        const { username, mail } = values;
        const password = await givenPassword(values);
        if (!username || !mail || !password) {
          throw new UsageError(`create-user needs --username, --mail and --password (or ${PASSWORD_VARIABLE}, or --password-stdin)`);
        }
        const perms = wholeNumber(values.perms, '--perms', 0);
        const id = await createAccount(OPERATOR, db, systemClock, { username, mail, password, perms }, settings.profiles);
        print(`Created user ${id} (${username}) with perms ${perms}`);
        return;
      }
      case 'set-perms': {
        const [user, level] = positionals;
        if (!user || level === undefined) throw new UsageError('set-perms needs USER and LEVEL');
        const detail = await admin.update(OPERATOR, user, { perms: wholeNumber(level, 'LEVEL') });
        print(`${detail.Username || user} now has perms ${level}`);
        return;
      }
      case 'reset-password': {
        const [user] = positionals;
        if (!user) throw new UsageError('reset-password needs USER');
        const chosen = await givenPassword(values);
        const password = chosen ?? randomBytes(12).toString('base64url');
        const detail = await admin.update(OPERATOR, user, { password });
        print(chosen ? `Password of ${detail.Username || user} changed` : `New password of ${detail.Username || user}: ${password}`);
        return;
      }
      case 'turn-off-2fa': {
        const [user] = positionals;
        if (!user) throw new UsageError('turn-off-2fa needs USER');
        const twoFactor = new TwoFactorService({
          db,
          clock: systemClock,
          // Turning two-factor login off checks no password: the imported password checks start no thread.
          failures: new LoginFailures(db, systemClock, new RateLimiter(new MemoryCounterStore(systemClock)), new ImportedPasswordChecks()),
          box: new SecretBox(settings.totpKey),
          issuer: settings.serverName,
          publicUrl: settings.publicUrl,
          // The mail waits in the outbox for a running service's worker.
          mailQueued: () => {},
        });
        await twoFactor.turnOffFor(OPERATOR, user);
        print(`Two-factor login of ${user} is off; a mail telling them is queued`);
        return;
      }
      case 'list-users': {
        const page = await admin.list(OPERATOR, {
          search: values.search,
          limit: wholeNumber(values.limit, '--limit', 100),
          offset: wholeNumber(values.offset, '--offset', 0),
        });
        print(['id', 'username', 'mail', 'perms', 'verified'].join('\t'));
        for (const user of page.records) print([user.id, user.username || '-', user.mail, user.perms, user.mail_verify].join('\t'));
        print(`${page.records.length} of ${page.total} users`);
        return;
      }
      case 'backup': {
        const [file] = positionals;
        if (!file) throw new UsageError('backup needs FILE');
        const sqlite = sqliteConnection(db);
        if (!sqlite) throw new UsageError('backup copies SQLite databases; back up PostgreSQL with pg_dump (docs/operations.md)');
        // The copy holds password hashes and secrets: readable by the operator alone from its first byte (SQLite gives
        // its journal the same mode). Made here, not by SQLite, which would follow the umask.
        try {
          closeSync(openSync(file, 'wx', 0o600));
        } catch (error) {
          const { code } = error as { code?: string };
          if (code === 'EEXIST') throw new UsageError(`${file} exists already; name a new file`);
          if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`the folder ${dirname(file)} does not exist; create it first`);
          throw error;
        }
        // SQLite's online backup API: copies page by page and restarts when a writer changes a page it copied.
        const { totalPages } = await sqlite.backup(file).catch((error: unknown) => {
          rmSync(file, { force: true }); // no half-written copy that looks like a backup
          throw error;
        });
        print(`Backed up ${totalPages} pages to ${file}`);
        return;
      }
      case 'import': {
        const options = importOptionsOf(positionals[0] ?? '', values);
        checkOptions(options);
        const store = textureStoreOf(settings, db);
        const library = new TextureLibrary(db, store, systemClock, imageCacheBudgets(settings.renderCacheBytes).textures);
        const target = {
          db,
          clock: systemClock,
          library,
          maxSkinWidth: settings.maxSkinWidth,
          maxTextureBytes: settings.maxTextureBytes,
          nameRule: settings.profiles.nameRule,
          actor: OPERATOR.actor,
        };
        await runImport(target, options, print);
        return;
      }
      case 'copy-database': {
        await copyDatabase(db, settings.database, targetOf(values.to), print);
        return;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCli(process.argv.slice(2), (line) => console.log(line)).catch((error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ImportOptionError || error instanceof SourceError) console.error(error.message);
    else if (error instanceof CopyError) console.error(error.message);
    else if (error instanceof ApiError || error instanceof SettingsError) console.error(error.message);
    else if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(`${(error as Error).message}\n\n${USAGE}`);
    else console.error(error);
    process.exit(1);
  });
}
