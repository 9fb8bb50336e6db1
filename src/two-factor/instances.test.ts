// Two instances on one PostgreSQL and Redis take a two-factor code once between them (contract section 12: "on every
// instance"): the same code, or the same recovery code, sent to both at the same moment lets exactly one login in.
// Both ways of test/instances.test.ts: two apps in this process, and two processes as `npm start` starts them. The
// instances read the system clock, so the test makes its codes at Date.now().
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { INSTANCE_WAYS, skipWithoutInstances, startTwoInstances } from '../../test/support/instances.ts';
import { randomAddress, type ServiceClient } from '../../test/support/service.ts';

const codeAt = (secret: string, timestamp: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

for (const [way, startInstance] of INSTANCE_WAYS) {
  describe(`two-factor codes on two instances: ${way}`, { skip: skipWithoutInstances }, () => {
    let a: ServiceClient;
    let b: ServiceClient;
    let close: (() => Promise<void>) | undefined;
    before(async () => {
      ({ a, b, close } = await startTwoInstances(startInstance));
    });
    after(() => close?.());

    it('a code, or a recovery code, sent to both instances at once lets one login in', async () => {
      const player = await a.registerPlayer();
      const setup = await a.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
      const secret = setup.body.data.secret as string;
      // Turned on through one instance; the other decrypts the same secret (the same TOTP_KEY).
      const confirmed = await b.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: codeAt(secret, Date.now()) } });
      assert.equal(confirmed.status, 200, confirmed.raw.toString());
      const [recovery] = confirmed.body.data.recovery_codes as string[];

      const raceWith = async (totp: string) => {
        const body = { username: player.username, password: player.password, totp };
        const answers = await Promise.all(
          [a, b, a, b].map((instance) => instance.call('POST', '/api/auth/login', { body, ip: randomAddress() })),
        );
        return answers.map((answer) => answer.status).sort();
      };
      // The next step's code: after the one the confirmation used, within one step of drift.
      assert.deepEqual(await raceWith(codeAt(secret, Date.now() + 30_000)), [200, 401, 401, 401]);
      assert.deepEqual(await raceWith(recovery!), [200, 401, 401, 401]);
    });
  });
}
