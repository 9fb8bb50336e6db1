// The SQL way of GravitLauncher (contract section 10, docs/gravitlauncher.md): a LaunchServer's `sql` auth core reads
// our PostgreSQL `users` table and writes its access_token, server_id and hwid_id columns and the hwids and hwidlog
// tables. This runs the statements that core builds, from the LaunchServer.json and the database role that
// docs/gravitlauncher.md gives (read from that file, so the two cannot drift apart), against the service's migrated
// schema, bound as its JDBC code binds them; and checks that the service itself never writes those three columns.
//
// The statements are those of GravitLauncher/Launcher, components/launchserver/src/main/java/pro/gravit/launchserver/
// auth/core/ (paraphrased below as the SQL they produce): AbstractSQLCoreProvider.java and SQLCoreProvider.java of
// 5.7.x (SQLCoreProvider as stored at commit dfe07a66950c: the hardware columns list `id` twice, and the hwidLog
// insert is built but its call commented out), and the later refactor of both (SQLCoreProvider at 2ee2ff30e452,
// AbstractSQLCoreProvider at 1f6b7a394652: the hwidLog insert runs when hardware is created, and a search by disk id
// or baseboard serial comes before the full scan). The user statements are the same in both.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from './support/databases.ts';
import { OWNER, startService, type TestService } from './support/service.ts';

const postgresUrl = process.env.TEST_POSTGRES_URL;
// Without a server the suite is skipped, visibly; under REQUIRE_SERVICES=1 importing databases.ts already failed.
const skip = postgresUrl ? false : 'set TEST_POSTGRES_URL to run the LaunchServer sql-core suite (PostgreSQL only)';

const DOC = readFileSync(new URL('../docs/gravitlauncher.md', import.meta.url), 'utf8');
const fencedBlocks = (language: string) => [...DOC.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** The `core` of the SQL way's LaunchServer.json in the docs (the ```json block whose core is of type sql). */
interface SqlCoreConfig {
  type: 'sql';
  table: string;
  uuidColumn: string;
  usernameColumn: string;
  accessTokenColumn: string;
  passwordColumn: string;
  serverIDColumn: string;
  hardwareIdColumn: string;
  tableHWID: string;
  tableHWIDLog: string;
  customQueryByLoginSQL: string;
  customQueryByUsernameSQL: string;
  customQueryByUUIDSQL: string;
}
const core = fencedBlocks('json')
  .map((block) => JSON.parse(`{${block}}`).auth as Record<string, { core: { type: string } }>)
  .flatMap((auth) => Object.values(auth).map((pair) => pair.core))
  .find((candidate): candidate is SqlCoreConfig => candidate.type === 'sql');
if (!core) throw new Error('docs/gravitlauncher.md has no LaunchServer.json block with a core of type sql');
/** The docs' SQL that creates the LaunchServer's database role (the ```sql block that starts with CREATE ROLE). */
const grants = fencedBlocks('sql').find((block) => block.startsWith('CREATE ROLE launchserver'));
if (!grants) throw new Error('docs/gravitlauncher.md has no CREATE ROLE launchserver block');

// The statements, built from the configuration as the Java code builds them.
// AbstractSQLCoreProvider: makeUserCols() "%s, %s, %s, %s, %s" (uuid, username, accessToken, serverID, password
// columns); SQLCoreProvider.makeUserCols() appends ", " + hardwareIdColumn.
const userColumns = [
  core.uuidColumn,
  core.usernameColumn,
  core.accessTokenColumn,
  core.serverIDColumn,
  core.passwordColumn,
  core.hardwareIdColumn,
];
const userCols = userColumns.join(', ');
const SQL = {
  // init(): queryByUUIDSQL / queryByUsernameSQL = custom ?? "SELECT %s FROM %s WHERE %s=? LIMIT 1"; queryByLoginSQL =
  // customQueryByLoginSQL ?? queryByUsernameSQL. Each is run with setString(1, value) (queryUser).
  byUuid: core.customQueryByUUIDSQL,
  byUsername: core.customQueryByUsernameSQL,
  byLogin: core.customQueryByLoginSQL,
  defaultByUuid: `SELECT ${userCols} FROM ${core.table} WHERE ${core.uuidColumn}=? LIMIT 1`,
  defaultByUsername: `SELECT ${userCols} FROM ${core.table} WHERE ${core.usernameColumn}=? LIMIT 1`,
  // updateAuthSQL "UPDATE %s SET %s=?, %s=NULL WHERE %s=?": updateAuth() at a password login, setString(token), setString(uuid).
  updateAuth: `UPDATE ${core.table} SET ${core.accessTokenColumn}=?, ${core.serverIDColumn}=NULL WHERE ${core.uuidColumn}=?`,
  // updateServerIDSQL "UPDATE %s SET %s=? WHERE %s=?": updateServerID() at joinServer, setString(serverID), setString(uuid).
  updateServerId: `UPDATE ${core.table} SET ${core.serverIDColumn}=? WHERE ${core.uuidColumn}=?`,
  // sqlUpdateUsers (later sqlUpdateUserHwidId) "UPDATE %s SET %s = ? WHERE %s = ?": setLong(hwid id), setString(uuid).
  updateUserHwid: `UPDATE ${core.table} SET ${core.hardwareIdColumn} = ? WHERE ${core.uuidColumn} = ?`,
  // sqlUsersByHwidId "SELECT %s FROM %s WHERE %s = ?" (user columns, table, hardwareIdColumn): setLong. The console's findmulti.
  usersByHwid: `SELECT ${userCols} FROM ${core.table} WHERE ${core.hardwareIdColumn} = ?`,
};
// hardwareInfoCols, hard-coded (5.7.x lists `id` twice; the refactor drops the second).
const HARDWARE_COLUMNS_57 =
  'id, hwDiskId, baseboardSerialNumber, displayId, bitness, totalMemory, logicalProcessors, physicalProcessors, processorMaxFreq, battery, id, graphicCard, banned, publicKey';
const HARDWARE_COLUMNS_LATER =
  'id, hwDiskId, baseboardSerialNumber, displayId, bitness, totalMemory, logicalProcessors, physicalProcessors, processorMaxFreq, battery, graphicCard, banned, publicKey';
const HARDWARE_SQL = (cols: string) => ({
  // sqlFindHardwareByPublicKey "SELECT %s FROM %s WHERE publicKey = ?": setBytes.
  byPublicKey: `SELECT ${cols} FROM ${core.tableHWID} WHERE publicKey = ?`,
  // sqlFindHardwareById "SELECT %s FROM %s WHERE id = ?": setLong(Long.parseLong(id)).
  byId: `SELECT ${cols} FROM ${core.tableHWID} WHERE id = ?`,
  // sqlFindHardwareByData "SELECT %s FROM %s": every row, compared in Java.
  all: `SELECT ${cols} FROM ${core.tableHWID}`,
  // Later only: sqlFindHardwareByDataFiltered "... WHERE hwDiskId = ? OR baseboardSerialNumber = ?": setString x2.
  byDiskOrBoard: `SELECT ${cols} FROM ${core.tableHWID} WHERE hwDiskId = ? OR baseboardSerialNumber = ?`,
});
// sqlCreateHardware, prepared with Statement.RETURN_GENERATED_KEYS; setBytes(publicKey), setString(hwDiskId),
// setString(baseboardSerialNumber), setBytes(displayId), setInt(bitness), setLong(totalMemory),
// setInt(logicalProcessors), setInt(physicalProcessors), setLong(processorMaxFreq), setString(graphicCard),
// setBoolean(battery); then getGeneratedKeys().getLong(1).
const CREATE_HARDWARE = `INSERT INTO ${core.tableHWID} (publickey, hwDiskId, baseboardSerialNumber, displayId, bitness, totalMemory, logicalProcessors, physicalProcessors, processorMaxFreq, graphicCard, battery, banned) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '0')`;
// sqlCreateHWIDLog "INSERT INTO %s (hwidId, newPublicKey) VALUES (?, ?)": setLong(id), setBytes(publicKey).
const CREATE_HWID_LOG = `INSERT INTO ${core.tableHWIDLog} (hwidId, newPublicKey) VALUES (?, ?)`;
// sqlUpdateHardwarePublicKey "UPDATE %s SET publicKey = ? WHERE id = ?": setBytes, setLong.
const UPDATE_HARDWARE_KEY = `UPDATE ${core.tableHWID} SET publicKey = ? WHERE id = ?`;
// sqlUpdateHardwareBanned "UPDATE %s SET banned = ? WHERE id = ?": setBoolean, setLong.
const UPDATE_HARDWARE_BANNED = `UPDATE ${core.tableHWID} SET banned = ? WHERE id = ?`;

/**
 * The JDBC setters the core calls, and the type the PostgreSQL JDBC driver sends each value with (a String goes as
 * varchar by default). Casting every parameter to that type makes PostgreSQL resolve columns and operators as it does
 * for the LaunchServer: `WHERE hwid_id = ?` with setLong compares with a bigint, which a text column refuses.
 */
const JDBC_TYPES = { setString: 'varchar', setLong: 'int8', setInt: 'int4', setBytes: 'bytea', setBoolean: 'bool' } as const;
type Parameter = [keyof typeof JDBC_TYPES, string | number | boolean | Buffer | null];

/** Result columns as JDBC's ResultSet finds them: by label, without regard to case. */
class Row {
  constructor(
    private readonly fields: pg.FieldDef[],
    private readonly values: unknown[],
  ) {}
  private at(label: string) {
    const index = this.fields.findIndex((field) => field.name.toLowerCase() === label.toLowerCase());
    assert.ok(index >= 0, `a column ${label} in the result (${this.fields.map((field) => field.name)})`);
    return this.values[index];
  }
  getString(label: string) {
    const value = this.at(label);
    assert.ok(value === null || typeof value === 'string', `${label} is text`);
    return value as string | null;
  }
  /** getLong: 0 for NULL, as JDBC gives it; int8 arrives as a string or a number depending on the pg type parser. */
  getLong(label: string) {
    const value = this.at(label);
    assert.ok(value === null || typeof value === 'number' || /^-?\d+$/.test(String(value)), `${label} is an integer`);
    return value === null ? 0n : BigInt(value as string);
  }
  getInt(label: string) {
    const value = this.at(label);
    assert.equal(typeof value, 'number', `${label} is an int`);
    return value as number;
  }
  getBytes(label: string) {
    const value = this.at(label);
    assert.ok(value === null || Buffer.isBuffer(value), `${label} is bytes`);
    return value as Buffer | null;
  }
  getBoolean(label: string) {
    const value = this.at(label);
    assert.equal(typeof value, 'boolean', `${label} is a boolean`);
    return value as boolean;
  }
}

/** PreparedStatement.execute*: each `?` becomes a parameter typed by its setter. */
async function jdbc(client: pg.Client, statement: string, parameters: Parameter[] = [], generatedKeys = false) {
  let count = 0;
  const text = statement.replace(/\?/g, () => {
    const [setter] = parameters[count] ?? assert.fail(`more ? than parameters in ${statement}`);
    count += 1;
    return `$${count}::${JDBC_TYPES[setter]}`;
  });
  assert.equal(count, parameters.length, `as many ? as parameters in ${statement}`);
  // pgjdbc implements RETURN_GENERATED_KEYS by appending RETURNING *; getLong(1) then reads the table's first column.
  const result = await client.query({
    text: generatedKeys ? `${text} RETURNING *` : text,
    values: parameters.map(([, v]) => v),
    rowMode: 'array',
  });
  return {
    rowCount: result.rowCount,
    fields: result.fields,
    rows: (result.rows as unknown[][]).map((values) => new Row(result.fields, values)),
  };
}

/** What the core reads of a user row (constructUser): uuid, username, token, serverID, password, hwidId. */
const userOf = (row: Row) => ({
  uuid: row.getString(core.uuidColumn),
  username: row.getString(core.usernameColumn),
  accessToken: row.getString(core.accessTokenColumn),
  serverId: row.getString(core.serverIDColumn),
  password: row.getString(core.passwordColumn),
  hwidId: row.getLong(core.hardwareIdColumn),
});

/** What the core reads of a hardware row (fetchHardwareInfo / mapHardware), by the labels it uses. */
const hardwareOf = (row: Row) => ({
  id: row.getLong('id'),
  hwDiskId: row.getString('hwDiskId'),
  baseboardSerialNumber: row.getString('baseboardSerialNumber'),
  displayId: row.getBytes('displayId'),
  bitness: row.getInt('bitness'),
  totalMemory: row.getLong('totalMemory'),
  logicalProcessors: row.getInt('logicalProcessors'),
  physicalProcessors: row.getInt('physicalProcessors'),
  processorMaxFreq: row.getLong('processorMaxFreq'),
  battery: row.getBoolean('battery'),
  graphicCard: row.getString('graphicCard'),
  banned: row.getBoolean('banned'),
  publicKey: row.getBytes('publicKey'),
});

describe('a LaunchServer sql core on the service PostgreSQL database', { skip }, () => {
  let service: TestService;
  let database: TestDatabase;
  let launchServer: pg.Client;
  const role = `launchserver_${randomBytes(4).toString('hex')}`;
  let player: { token: string; mail: string; username: string; password: string; uuid: string };

  before(async () => {
    database = await createTestDatabase('postgres');
    service = await startService('postgres', { database, settings: { owner: OWNER } });
    const registered = await service.registerPlayer();
    const uuid = (await service.call('GET', '/api/home', { token: registered.token })).body.data.Uuid as string;
    player = { ...registered, uuid };
    // The docs' role, under a name of this run's own (roles belong to the whole PostgreSQL server).
    launchServer = new pg.Client({ connectionString: (database.settings as { url: string }).url });
    await launchServer.connect();
    await launchServer.query(grants.replaceAll(/\blaunchserver\b/g, role));
    await launchServer.query(`SET ROLE ${role}`);
  });
  after(async () => {
    await launchServer?.end();
    await service?.close();
    await database?.drop();
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  const stored = async () =>
    service.db
      .selectFrom('users')
      .select(['access_token', 'server_id', 'hwid_id', 'password'])
      .where('uuid', '=', player.uuid)
      .executeTakeFirstOrThrow();

  it('finds the player by name or mail in any letter case, by name for checkServer, by UUID, with the six columns', async () => {
    for (const login of [player.username, player.username.toUpperCase(), player.mail, ` ${player.mail.toUpperCase()} `]) {
      const found = await jdbc(launchServer, SQL.byLogin, [['setString', login]]);
      assert.equal(found.rows.length, 1, login);
      assert.deepEqual(
        found.fields.map((field) => field.name),
        userColumns,
      );
      const user = userOf(found.rows[0]!);
      assert.equal(user.username, player.username, 'the core goes on with the name as stored');
      assert.equal(user.uuid, player.uuid);
      assert.match(user.uuid!, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'UUID.fromString reads it');
      assert.match(user.password!, /^\$argon2id\$/, 'the hash the json password verifier sends to verifypassword');
      assert.deepEqual([user.accessToken, user.serverId, user.hwidId], [null, null, 0n]);
    }
    assert.equal((await jdbc(launchServer, SQL.byLogin, [['setString', 'nobody_here']])).rows.length, 0);
    for (const [statement, value] of [
      [SQL.byUsername, player.username],
      [SQL.defaultByUsername, player.username],
      [SQL.byUuid, player.uuid],
      [SQL.defaultByUuid, player.uuid],
    ] as const) {
      const found = await jdbc(launchServer, statement, [['setString', value]]);
      assert.equal(found.rows.length, 1, statement);
      assert.equal(userOf(found.rows[0]!).uuid, player.uuid);
    }
  });

  it("writes the player's access token at login and server id at join, and the server check reads them back", async () => {
    const accessToken = randomBytes(16).toString('hex'); // SecurityHelper.randomStringToken()
    assert.equal(
      (
        await jdbc(launchServer, SQL.updateAuth, [
          ['setString', accessToken],
          ['setString', player.uuid],
        ])
      ).rowCount,
      1,
    );
    // Minecraft's server hash: a signed SHA-1 in hex, up to 41 characters.
    const serverId = '-' + randomBytes(20).toString('hex');
    assert.equal(
      (
        await jdbc(launchServer, SQL.updateServerId, [
          ['setString', serverId],
          ['setString', player.uuid],
        ])
      ).rowCount,
      1,
    );
    const user = userOf((await jdbc(launchServer, SQL.byUsername, [['setString', player.username]])).rows[0]!);
    assert.equal(user.accessToken, accessToken);
    assert.equal(user.serverId, serverId, 'checkServer compares this with the serverID the Minecraft server sends');
    // A new login replaces the token and clears the server id.
    const next = randomBytes(16).toString('hex');
    await jdbc(launchServer, SQL.updateAuth, [
      ['setString', next],
      ['setString', player.uuid],
    ]);
    assert.deepEqual(await stored().then((row) => [row.access_token, row.server_id]), [next, null]);
    await jdbc(launchServer, SQL.updateServerId, [
      ['setString', serverId],
      ['setString', player.uuid],
    ]);
  });

  for (const [version, columns] of [
    ['5.7.x', HARDWARE_COLUMNS_57],
    ['the later refactor', HARDWARE_COLUMNS_LATER],
  ] as const) {
    it(`records hardware, finds it, changes its key and ban, and links the player to it (${version} statements)`, async () => {
      const hardware = HARDWARE_SQL(columns);
      const info = {
        hwDiskId: `S3Z9NB0K${randomBytes(4).toString('hex')}`,
        baseboardSerialNumber: `MB-${randomBytes(4).toString('hex')}`,
        displayId: randomBytes(128), // an EDID
        bitness: 64,
        totalMemory: 17_179_869_184, // 16 GiB: more than an int
        logicalProcessors: 8,
        physicalProcessors: 4,
        processorMaxFreq: 3_600_000_000, // more than an int
        graphicCard: 'NVIDIA GeForce RTX 3060',
        battery: true,
      };
      const publicKey = randomBytes(91); // an EC public key in X.509 form is about this long
      const created = await jdbc(
        launchServer,
        CREATE_HARDWARE,
        [
          ['setBytes', publicKey],
          ['setString', info.hwDiskId],
          ['setString', info.baseboardSerialNumber],
          ['setBytes', info.displayId],
          ['setInt', info.bitness],
          ['setLong', info.totalMemory],
          ['setInt', info.logicalProcessors],
          ['setInt', info.physicalProcessors],
          ['setLong', info.processorMaxFreq],
          ['setString', info.graphicCard],
          ['setBoolean', info.battery],
        ],
        true,
      );
      assert.equal(created.fields[0]!.name, 'id', 'getGeneratedKeys().getLong(1) reads the first column: the id');
      const id = created.rows[0]!.getLong('id');
      assert.ok(id > 0n);
      // The later core logs the key in the same transaction (logHwidCreation).
      assert.equal(
        (
          await jdbc(launchServer, CREATE_HWID_LOG, [
            ['setLong', String(id)],
            ['setBytes', publicKey],
          ])
        ).rowCount,
        1,
      );

      const expected = {
        id,
        ...info,
        totalMemory: BigInt(info.totalMemory),
        processorMaxFreq: BigInt(info.processorMaxFreq),
        banned: false,
        publicKey,
      };
      const byKey = await jdbc(launchServer, hardware.byPublicKey, [['setBytes', publicKey]]);
      assert.deepEqual(byKey.rows.map(hardwareOf), [expected]);
      const byId = await jdbc(launchServer, hardware.byId, [['setLong', String(id)]]);
      assert.deepEqual(byId.rows.map(hardwareOf), [expected]);
      assert.deepEqual(
        (await jdbc(launchServer, hardware.all)).rows.map(hardwareOf).filter((row) => row.id === id),
        [expected],
      );
      const byDisk = await jdbc(launchServer, hardware.byDiskOrBoard, [
        ['setString', info.hwDiskId],
        ['setString', 'another board'],
      ]);
      assert.deepEqual(byDisk.rows.map(hardwareOf), [expected]);

      const newKey = randomBytes(91);
      assert.equal(
        (
          await jdbc(launchServer, UPDATE_HARDWARE_KEY, [
            ['setBytes', newKey],
            ['setLong', String(id)],
          ])
        ).rowCount,
        1,
      );
      assert.equal((await jdbc(launchServer, hardware.byPublicKey, [['setBytes', publicKey]])).rows.length, 0);
      assert.equal(hardwareOf((await jdbc(launchServer, hardware.byPublicKey, [['setBytes', newKey]])).rows[0]!).id, id);
      await jdbc(launchServer, UPDATE_HARDWARE_BANNED, [
        ['setBoolean', true],
        ['setLong', String(id)],
      ]);
      assert.equal(hardwareOf((await jdbc(launchServer, hardware.byId, [['setLong', String(id)]])).rows[0]!).banned, true);
      await jdbc(launchServer, UPDATE_HARDWARE_BANNED, [
        ['setBoolean', false],
        ['setLong', String(id)],
      ]);
      assert.equal(hardwareOf((await jdbc(launchServer, hardware.byId, [['setLong', String(id)]])).rows[0]!).banned, false);

      // connectUserAndHardware, then findmulti: the lookup by hwid_id compares with a bigint.
      assert.equal(
        (
          await jdbc(launchServer, SQL.updateUserHwid, [
            ['setLong', String(id)],
            ['setString', player.uuid],
          ])
        ).rowCount,
        1,
      );
      const users = await jdbc(launchServer, SQL.usersByHwid, [['setLong', String(id)]]);
      assert.deepEqual(
        users.rows.map((row) => [userOf(row).uuid, userOf(row).hwidId]),
        [[player.uuid, id]],
      );
      assert.equal(userOf((await jdbc(launchServer, SQL.byUuid, [['setString', player.uuid]])).rows[0]!).hwidId, id);
    });
  }

  it("never writes the LaunchServer's columns itself: admin changes, a password change and a game login leave them", async () => {
    const before = await stored();
    assert.ok(before.access_token && before.server_id && before.hwid_id, 'the tests above gave the player all three');
    const ownerToken = await service.ownerToken();
    const patch = async (body: object) => {
      const reply = await service.call('PATCH', `/api/admin/user/${player.uuid}`, { token: ownerToken, body });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    };
    await patch({ mail_verify: true, mail_verification: false });
    await patch({ perms: -1 }); // a ban revokes every session of the player
    await patch({ perms: 0 });
    const newPassword = 'another long password';
    const changed = await service.call('PATCH', '/api/home', {
      token: (await service.call('POST', '/api/auth/login', { body: { username: player.mail, password: player.password } })).body.data.jwt,
      body: { password: newPassword, current_password: player.password },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const game = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: player.mail, password: newPassword },
    });
    assert.equal(game.status, 200);
    const joined = await service.call('POST', '/api/yggdrasil/sessionserver/session/minecraft/join', {
      body: { accessToken: game.body.accessToken, selectedProfile: game.body.selectedProfile.id, serverId: 'a-game-server' },
    });
    assert.equal(joined.status, 204);
    const afterwards = await stored();
    assert.deepEqual(
      [afterwards.access_token, afterwards.server_id, afterwards.hwid_id],
      [before.access_token, before.server_id, before.hwid_id],
    );
    assert.notEqual(afterwards.password, before.password, 'the password did change: the LaunchServer reads the new hash');
  });

  it('leaves out accounts the service would refuse: banned, mail unconfirmed, registration unfinished', async () => {
    const ownerToken = await service.ownerToken();
    const patch = (body: object) => service.call('PATCH', `/api/admin/user/${player.uuid}`, { token: ownerToken, body });
    const finds = async () => ({
      login: (await jdbc(launchServer, SQL.byLogin, [['setString', player.mail]])).rows.length,
      username: (await jdbc(launchServer, SQL.byUsername, [['setString', player.username]])).rows.length,
      uuid: (await jdbc(launchServer, SQL.byUuid, [['setString', player.uuid]])).rows.length,
    });
    assert.deepEqual(await finds(), { login: 1, username: 1, uuid: 1 });
    assert.equal((await patch({ perms: -1 })).status, 200);
    assert.deepEqual(await finds(), { login: 0, username: 0, uuid: 0 }, 'banned');
    assert.equal((await patch({ perms: 0, mail_verify: false, mail_verification: true })).status, 200);
    assert.deepEqual(await finds(), { login: 0, username: 0, uuid: 0 }, 'mail not confirmed');
    assert.equal((await patch({ mail_verify: true })).status, 200);
    assert.deepEqual(await finds(), { login: 1, username: 1, uuid: 1 });

    // Registration step 1 only: an account with a mail and a UUID but no player name yet.
    const mail = `unfinished_${randomBytes(4).toString('hex')}@example.org`;
    const started = await service.call('POST', '/api/auth/register', { body: { mail, password: 'a long password' } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const unfinished = await service.db
      .selectFrom('users')
      .select(['uuid', 'username'])
      .where('mail_key', '=', mail)
      .executeTakeFirstOrThrow();
    assert.equal(unfinished.username, null);
    await service.db.updateTable('users').set({ mail_verify: 1 }).where('mail_key', '=', mail).execute();
    assert.equal((await jdbc(launchServer, SQL.byLogin, [['setString', mail]])).rows.length, 0, 'unfinished: by mail');
    assert.equal((await jdbc(launchServer, SQL.byUuid, [['setString', unfinished.uuid!]])).rows.length, 0, 'unfinished: by UUID');
  });

  it('is refused everything else by the role the docs create', async () => {
    const refused = async (statement: string) =>
      assert.rejects(launchServer.query(statement), (error: { code?: string }) => error.code === '42501', statement);
    await refused(`SELECT mail FROM users`);
    await refused(`UPDATE users SET perms = 3 WHERE uuid = '${player.uuid}'`);
    await refused(`UPDATE users SET password = 'x' WHERE uuid = '${player.uuid}'`);
    await refused(`SELECT * FROM sessions`);
    await refused(`DELETE FROM hwids`);
  });
});
