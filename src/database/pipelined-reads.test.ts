import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startService, type TestService } from '../../test/support/service.ts';
import { until } from '../../test/support/wait.ts';

// The hot reads of every request share one pipelined PostgreSQL connection (pipelined-reads.ts).
describe('hot reads on PostgreSQL', { skip: process.env.TEST_POSTGRES_URL ? false : 'set TEST_POSTGRES_URL' }, () => {
  let service: TestService;
  before(async () => {
    service = await startService('postgres');
  });
  after(async () => service?.close());

  const home = async (token: string) => (await service.call('GET', '/api/home', { token })).body.data as { Username: string };

  it('answers requests made at once each with its own caller', async () => {
    const players = await Promise.all([0, 1, 2].map(() => service.registerPlayer()));
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => home(players[index % 3]!.token)));
    answers.forEach((answer, index) => assert.equal(answer.Username, players[index % 3]!.username));
  });

  it('still answers after PostgreSQL ended every connection of the service', async () => {
    const player = await service.registerPlayer();
    assert.equal((await home(player.token)).Username, player.username);
    const { url } = service.settings.database as { url: string };
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const ended = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      assert.ok(ended.rowCount! >= 1);
    } finally {
      await admin.end();
    }
    // Requests in flight when a connection ends fail; the ones after get new connections.
    await until(
      async () => (await service.call('GET', '/api/home', { token: player.token })).status === 200,
      'an answer after the reconnect',
    );
    assert.equal((await home(player.token)).Username, player.username);
  });
});
