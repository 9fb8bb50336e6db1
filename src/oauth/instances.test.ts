// Yggdrasil Connect on two instances of one PostgreSQL database (contract section 18: every grant lives in the
// database): a device code started on one is approved through the other and its tokens come from either; both name
// the same shared client and sign ID tokens with the same key. Both ways of test/support/instances.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INSTANCE_WAYS, skipWithoutInstances, startTwoInstances } from '../../test/support/instances.ts';
import { DEVICE_SCOPE, launcherConfig, oidc } from '../../test/support/oidc-launcher.ts';
import { randomAddress, type ServiceClient } from '../../test/support/service.ts';

for (const [way, startInstance] of INSTANCE_WAYS) {
  describe(`Yggdrasil Connect on two instances: ${way}`, { skip: skipWithoutInstances }, () => {
    let a: ServiceClient;
    let b: ServiceClient;
    let close: (() => Promise<void>) | undefined;
    before(async () => {
      ({ a, b, close } = await startTwoInstances(startInstance));
    });
    after(() => close?.());

    it('completes on one instance a device login started and approved on the other', async () => {
      const steve = await a.registerPlayer();
      const onA = await launcherConfig(a);
      const onB = await launcherConfig(b);
      assert.equal(onA.clientMetadata().client_id, onB.clientMetadata().client_id, 'one shared client');
      const started = await oidc.initiateDeviceAuthorization(onA, { scope: DEVICE_SCOPE });
      const approved = await b.call('POST', '/api/oauth/consent', {
        token: steve.token,
        body: { user_code: started.user_code, approve: true },
      });
      assert.equal(approved.status, 200, approved.raw.toString());
      const tokens = await oidc.pollDeviceAuthorizationGrant(onB, started);
      const selected = tokens.claims()!.selectedProfile as { id: string; name: string };
      assert.equal(selected.name, steve.username, 'the ID token of one instance verifies with the keys of the other');
      const rotated = await oidc.refreshTokenGrant(onA, tokens.refresh_token!);
      const joined = await b.call('POST', '/api/yggdrasil/sessionserver/session/minecraft/join', {
        body: { accessToken: rotated.access_token, selectedProfile: selected.id, serverId: 'server-a' },
        ip: randomAddress(),
      });
      assert.equal(joined.status, 204);
    });
  });
}
