// The login limits of contract section 15: each check of a password or code takes its place before it runs, so that
// requests arriving together check no more secrets than the limits allow (in memory and in Redis); 10 failures per
// account and client address, 30 per address, 100 per account; the client address behind a proxy, and IPv6 by /64.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { ApiError } from '../http/envelope.ts';
import { MemoryCounterStore, RateLimiter, RedisCounterStore, type CounterStore } from '../ratelimit/limiter.ts';
import { Credentials, type LoginCheck, type SecondFactor } from './credentials.ts';
import { ImportedPasswordChecks } from './imported-password-checks.ts';
import { LoginFailures } from './login-failures.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** A second factor that is on for every account, accepts no code, and counts the codes it was asked to check. */
class WrongCodes implements SecondFactor {
  checked = 0;
  async isOn() {
    return true;
  }
  async accept() {
    this.checked += 1;
    return false;
  }
  looksLikeCode(text: string) {
    return /^\d{6}$/.test(text);
  }
  async wasUsed() {
    return false;
  }
}

/** How many of the answers were a check's refusal (401 at the routes) and how many the limits' 429. */
async function outcomes(attempts: Promise<LoginCheck>[]) {
  const counted = { checked: 0, limited: 0 };
  for (const result of await Promise.allSettled(attempts)) {
    if (result.status === 'fulfilled') counted.checked += 1;
    else if (result.reason instanceof ApiError && result.reason.status === 429) counted.limited += 1;
    else throw result.reason;
  }
  return counted;
}

describeEachDatabase('login limits', (kind) => {
  const clock = new ManualClock();
  const importedChecks = new ImportedPasswordChecks();
  let service: TestService;
  const redisClients: Redis[] = [];
  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => {
    for (const client of redisClients) await client.quit();
    await importedChecks.close();
    await service?.close();
  });

  const stores: [string, (() => CounterStore) | null][] = [
    ['memory', () => new MemoryCounterStore(clock)],
    [
      'Redis',
      redisUrl
        ? () => {
            const client = new Redis(redisUrl);
            redisClients.push(client);
            return new RedisCounterStore(client, `test:${randomBytes(4).toString('hex')}:`);
          }
        : null,
    ],
  ];
  for (const [storeName, newStore] of stores) {
    describe(`checks counted before they run, ${storeName} store`, { skip: newStore ? false : 'set TEST_REDIS_URL' }, () => {
      // Each test gets counters of its own (a new store, a new Redis prefix) on the one database.
      const credentialsWith = (secondFactor: SecondFactor | null = null) =>
        new Credentials(service.db, new LoginFailures(service.db, clock, new RateLimiter(newStore!()), importedChecks), secondFactor);

      it('100 logins at once with the right password and wrong codes check 10 codes', async () => {
        const player = await service.registerPlayer();
        const codes = new WrongCodes();
        const credentials = credentialsWith(codes);
        const address = randomAddress();
        const attempts = Array.from({ length: 100 }, (_, index) =>
          credentials.check(player.username, player.password, address, { code: String(100_000 + index) }),
        );
        assert.deepEqual(await outcomes(attempts), { checked: 10, limited: 90 });
        assert.equal(codes.checked, 10);
      });

      it('the right password from 100 addresses at once with wrong codes checks 10 codes; the password still works', async () => {
        const player = await service.registerPlayer();
        const codes = new WrongCodes();
        const credentials = credentialsWith(codes);
        const attempts = Array.from({ length: 100 }, (_, index) =>
          credentials.check(player.username, player.password, randomAddress(), { code: String(100_000 + index) }),
        );
        assert.deepEqual(await outcomes(attempts), { checked: 10, limited: 90 });
        assert.equal(codes.checked, 10, 'only someone with the password reaches a code: 10 codes per account, from anywhere');
        // The code limit refused, not the login limits: the password's places were given back.
        const withoutCode = await credentials.check(player.username, player.password, randomAddress());
        assert.equal(withoutCode.refusal, 'code-required');
      });

      it('wrong passwords at once stop at each limit: account and address 10, address 30, account 100', async () => {
        const player = await service.registerPlayer();
        const credentials = credentialsWith();
        const address = randomAddress();
        const onePair = Array.from({ length: 40 }, () => credentials.check(player.username, 'wrong password', address));
        assert.deepEqual(await outcomes(onePair), { checked: 10, limited: 30 });

        const manyNames = Array.from({ length: 40 }, () => credentials.check(uniqueName(), 'wrong password', address));
        assert.deepEqual(await outcomes(manyNames), { checked: 20, limited: 20 }, '30 per address in all');

        const manyAddresses = Array.from({ length: 120 }, () => credentials.check(player.username, 'wrong password', randomAddress()));
        assert.deepEqual(await outcomes(manyAddresses), { checked: 90, limited: 30 }, '100 per account in all');
        // A LaunchServer's logins (no address) count on the account's limit, now used up.
        await assert.rejects(credentials.check(player.username, player.password, null), { status: 429 });
      });

      it('a right password gives its place back; a confirmation does not clear the failures', async () => {
        const player = await service.registerPlayer();
        const failures = new LoginFailures(service.db, clock, new RateLimiter(newStore!()), importedChecks);
        const { id } = await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow();
        const address = randomAddress();
        for (let attempt = 0; attempt < 9; attempt += 1) assert.equal(await failures.confirmOwnPassword(id, 'wrong', address), false);
        for (let attempt = 0; attempt < 20; attempt += 1)
          assert.equal(await failures.confirmOwnPassword(id, player.password, address), true);
        assert.equal(await failures.confirmOwnPassword(id, 'wrong', address), false);
        await assert.rejects(failures.confirmOwnPassword(id, player.password, address), { status: 429 });
      });
    });
  }

  describe('through the routes', () => {
    const login = (username: string, password: string, ip: string) =>
      service.call('POST', '/api/auth/login', { body: { username, password }, ip });
    const gameLogin = (username: string, password: string, ip: string) =>
      service.call('POST', '/api/yggdrasil/authserver/authenticate', { body: { username, password }, ip });

    it('ten wrong guesses from one address keep the player out there only, and are audited at 100', async () => {
      const player = await service.registerPlayer();
      const stranger = randomAddress();
      for (let attempt = 0; attempt < 10; attempt += 1) assert.equal((await gameLogin(player.username, 'wrong', stranger)).status, 403);
      const limited = await login(player.username, player.password, stranger);
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal((await login(player.username, player.password, randomAddress())).status, 200, 'another address gets in');

      for (let attempt = 0; attempt < 89; attempt += 1) await login(player.username, 'wrong', randomAddress());
      const { id } = await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow();
      const audited = () =>
        service.db.selectFrom('audit_log').selectAll().where('action', '=', 'auth.login_failures').where('target_id', '=', id).execute();
      assert.equal((await audited()).length, 0, '99 failures');
      assert.equal((await login(player.username, 'wrong', randomAddress())).status, 401);
      assert.equal((await audited()).length, 1, 'the 100th failure fills the account limit');
      assert.equal((await login(player.username, player.password, randomAddress())).status, 429, 'now every address waits');
      clock.advance(15 * 60_000);
      assert.equal((await login(player.username, player.password, stranger)).status, 200, 'the window passes');
    });

    it('a complete login clears the failures of its own address only', async () => {
      const player = await service.registerPlayer();
      const [home, elsewhere] = [randomAddress(), randomAddress()];
      for (let attempt = 0; attempt < 9; attempt += 1) {
        await login(player.username, 'wrong', home);
        await login(player.username, 'wrong', elsewhere);
      }
      assert.equal((await login(player.username, player.password, home)).status, 200);
      for (let attempt = 0; attempt < 10; attempt += 1) assert.equal((await login(player.username, 'wrong', home)).status, 401);
      assert.equal((await login(player.username, 'wrong', elsewhere)).status, 401);
      assert.equal((await login(player.username, 'wrong', elsewhere)).status, 429);
    });

    it('limits IPv6 clients by their /64, and an IPv4-mapped address as the IPv4 one', async () => {
      for (let attempt = 0; attempt < 30; attempt += 1) {
        await login(uniqueName(), 'wrong', attempt % 2 ? '2001:db8:7:8::1' : '2001:db8:7:8:ffff:1:2:3');
      }
      assert.equal((await login(uniqueName(), 'wrong', '2001:0db8:0007:0008::99')).status, 429, 'the same /64');
      assert.equal((await login(uniqueName(), 'wrong', '2001:db8:7:9::1')).status, 401, 'the next /64');

      const ipv4 = randomAddress();
      for (let attempt = 0; attempt < 30; attempt += 1) await login(uniqueName(), 'wrong', ipv4);
      assert.equal((await login(uniqueName(), 'wrong', `::ffff:${ipv4}`)).status, 429);
    });
  });
});

describeEachDatabase('client address behind TRUST_PROXY=true', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind, { settings: { trustProxy: true } });
  });
  after(async () => service?.close());

  it('counts the address the proxy saw, not one the client wrote before it', async () => {
    const seenByProxy = randomAddress();
    const attempt = (index: number) =>
      service.call('POST', '/api/auth/login', {
        body: { username: uniqueName(), password: 'wrong' },
        ip: '127.0.0.1', // the proxy
        headers: { 'x-forwarded-for': `1.2.3.${index % 250}, ${seenByProxy}` },
      });
    for (let index = 0; index < 30; index += 1) assert.equal((await attempt(index)).status, 401);
    assert.equal((await attempt(30)).status, 429);
  });
});
