// CookieCMS from every database it runs on (issue 45): MariaDB, PostgreSQL (its default) and SQLite, each built with
// CookieCMS's own DDL in both of its hardware schemas (the launcher's key as bytes in a binary column, or as base64 in
// a string). Imported through the CLI, whose process also opens the service's own database: a 64-bit Discord id comes
// over exactly and the player logs in with Discord, and the imported machine is found by its key through the
// LaunchServer API, banned as CookieCMS had it.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { cookieCmsDdl } from '../../test/support/cookiecms-ddl.ts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test/support/databases.ts';
import { importTarget, runImportCli, type ImportTarget } from '../../test/support/import-run.ts';
import { createImportSource, skipWithout, SOURCE_KINDS, type ImportSource } from '../../test/support/import-sources.ts';
import { LaunchServerRequester } from '../../test/support/launchserver.ts';
import { startService, type TestService } from '../../test/support/service.ts';

const GRAVIT_TOKEN = 'launchserver-shared-secret-0123';
/** 2^60 + 1 and on: as doubles they would read 1152921504606846976, 1152921504606846980, … */
const FIRST_DISCORD_ID = 1152921504606846977n;

describeEachDatabase('importing CookieCMS from each database it runs on', (kind) => {
  let database: TestDatabase;
  let target: ImportTarget;
  let service: TestService;
  before(async () => {
    database = await createTestDatabase(kind);
    target = importTarget(database);
    service = await startService(kind, { database, settings: { dataDir: target.dataDir, gravitToken: GRAVIT_TOKEN } });
  });
  after(() => service?.close());

  let nth = 0;
  for (const sourceKind of SOURCE_KINDS) {
    for (const hardwareKeys of ['bytes', 'text'] as const) {
      const index = nth++;
      it(
        `keeps the Discord link and the machine's key from ${sourceKind}, keys as ${hardwareKeys}`,
        { skip: skipWithout(sourceKind) },
        async () => {
          const source: ImportSource = await createImportSource(sourceKind, cookieCmsDdl(sourceKind, { hardwareKeys }));
          try {
            const discordId = String(FIRST_DISCORD_ID + BigInt(2 * index));
            const name = `Cms${index}${randomBytes(3).toString('hex')}`;
            const publicKey = Buffer.concat([Buffer.from([0x30, 0x59, 0x00, 0xff]), randomBytes(60)]);
            const displayId = randomBytes(16);
            const stored = (bytes: Buffer) => (hardwareKeys === 'bytes' ? bytes : bytes.toString('base64'));
            const yes = sourceKind === 'postgres' ? 'true' : '1';
            const q = (column: string) => (sourceKind === 'mysql' ? `\`${column}\`` : `"${column}"`);
            await source.run(`INSERT INTO hwids (id, publickey, ${q('displayId')}, battery, banned) VALUES (1, ?, ?, ${yes}, ${yes})`, [
              stored(publicKey),
              stored(displayId),
            ]);
            await source.run(
              `INSERT INTO users (id, username, dsid, mail, mail_verify, uuid, password, ${q('hwidId')}, permission_group_id)
             VALUES (1, ?, ?, ?, 1, ?, ?, 1, 1)`,
              [name, discordId, `${name.toLowerCase()}@example.org`, randomUUID(), await hash('a password', { algorithm: 2 })],
            );
            await source.run(`INSERT INTO discord (userid, avatar_cache, name_gb) VALUES (${discordId}, 'avatar', 'discord name')`);

            const run = await runImportCli(target, ['cookiecms', '--from', source.url]);
            assert.equal(run.code, 0, run.err);
            assert.deepEqual(run.report!.counts.accounts, { imported: 1, already: 0, left_out: 0 }, JSON.stringify(run.report));
            assert.deepEqual(run.report!.counts.hardware, { imported: 1, already: 0, left_out: 0 });

            const account = await service.db
              .selectFrom('users')
              .select(['dsid', 'discord_username'])
              .where('mail', '=', `${name.toLowerCase()}@example.org`)
              .executeTakeFirstOrThrow();
            assert.deepEqual(account, { dsid: discordId, discord_username: 'discord name' }, 'the 64-bit Discord id, exactly');

            const launchServer = new LaunchServerRequester(service, GRAVIT_TOKEN);
            const machine = await launchServer.post('hardware/getbykey', { publicKey: publicKey.toString('base64url') });
            assert.ok(machine.ok && machine.status === 200, 'the LaunchServer finds the imported machine by its key');
            assert.equal(machine.result.banned, true, 'and its ban holds');
            assert.equal(
              Buffer.from(machine.result.hardwareInfo.displayId as string, 'base64url').toString('hex'),
              displayId.toString('hex'),
            );
          } finally {
            await source.drop();
          }
        },
      );
    }
  }
});
