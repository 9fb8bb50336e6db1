// GET /api/admin/hardware/status: whether the console has hardware to show (issue 38, item 13). Without GRAVIT_TOKEN
// nothing reports hardware through the launcher API, but a LaunchServer's sql core may still write it into the tables.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';

describeEachDatabase('the hardware status for the console', (kind) => {
  let withoutToken: TestService;
  let withToken: TestService;
  before(async () => {
    withoutToken = await startService(kind, { settings: { owner: OWNER } });
    withToken = await startService(kind, { settings: { owner: OWNER, gravitToken: 'launchserver-shared-secret-0123' } });
  });
  after(async () => {
    await withoutToken?.close();
    await withToken?.close();
  });
  const status = async (service: TestService, token: string) => service.call('GET', '/api/admin/hardware/status', { token });

  it('says whether GRAVIT_TOKEN is set and how much hardware is recorded, to moderators only', async () => {
    const owner = await withoutToken.ownerToken();
    assert.deepEqual((await status(withoutToken, owner)).body.data, { launcher_api: false, reported: 0 });
    // A LaunchServer's sql core writes hwids without this service's launcher API.
    await withoutToken.db.insertInto('hwids').values({ hwdiskid: 'DISK-1', battery: 0, banned: 0 }).execute();
    assert.deepEqual((await status(withoutToken, owner)).body.data, { launcher_api: false, reported: 1 });
    assert.deepEqual((await status(withToken, await withToken.ownerToken())).body.data, { launcher_api: true, reported: 0 });

    const player = await withoutToken.registerPlayer();
    assert.equal((await status(withoutToken, player.token)).status, 403);
    assert.equal((await withoutToken.call('GET', '/api/admin/hardware/status')).status, 401);
  });
});
