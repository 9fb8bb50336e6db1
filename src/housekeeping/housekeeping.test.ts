// Ended sessions and tokens leave the database on the service's own schedule; live and revoked-but-unexpired ones stay.
// Sent mail leaves a day after it was sent, without its body from the moment it was sent.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { randomAddress, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { SENT_MAIL_KEPT_MS } from './housekeeping.ts';
import { REFRESH_LIFETIME_MS } from '../sessions/launcher.ts';
import { GAME_TOKEN_LIFETIME_MS } from '../yggdrasil/tokens.ts';

describeEachDatabase('removing ended sessions and tokens', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  before(async () => {
    // A pass every 50 ms: the test moves its clock and waits for the service's own pass.
    service = await startService(kind, { clock, app: { housekeepingIntervalMs: 50 } });
  });
  after(async () => service?.close());

  /** How many rows of `table` the user has. */
  const rowsOf = (table: 'sessions' | 'game_tokens' | 'launcher_sessions', userId: number) => async () =>
    (await service.db.selectFrom(table).select('id').where('user_id', '=', userId).execute()).length;
  const idOf = async (username: string) =>
    (await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  /** Waits (up to 5 s) for the service's passes to make `count` reach `expected`. */
  const eventually = async (count: () => Promise<number>, expected: number, what: string) => {
    for (let attempt = 0; attempt < 100 && (await count()) !== expected; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await count(), expected, what);
  };

  it('removes web sessions, game tokens and launcher sessions once they have ended, and nothing live', async () => {
    const early = await service.registerPlayer();
    const earlyId = await idOf(early.username);
    const sessions = rowsOf('sessions', earlyId);
    const gameTokens = rowsOf('game_tokens', earlyId);
    const launcherSessions = rowsOf('launcher_sessions', earlyId);
    const game = await service.call('POST', '/api/yggdrasil/authserver/authenticate', {
      body: { username: early.mail, password: early.password },
      ip: randomAddress(),
    });
    assert.equal(game.status, 200);
    // A launcher session as the GravitLauncher API writes it (src/sessions/launcher.ts).
    await service.db
      .insertInto('launcher_sessions')
      .values({
        user_id: earlyId,
        access_hash: `access-${earlyId}`,
        refresh_hash: `refresh-${earlyId}`,
        created_at: clock.now(),
        access_expires_at: clock.now() + 3600_000,
        refresh_expires_at: clock.now() + REFRESH_LIFETIME_MS,
        revoked_at: null,
      })
      .execute();
    const loggedOut = await service.call('POST', '/api/auth/login', { body: { username: early.username, password: early.password } });
    await service.call('POST', '/api/auth/logout', { token: loggedOut.body.data.jwt });
    const sessionsBefore = await sessions();
    assert.equal(sessionsBefore, 2, 'the registration and the logged-out login each made a session');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await sessions(), sessionsBefore, 'nothing live or revoked-but-unexpired is removed');

    // The web sessions end; a session made now is live.
    clock.advance(service.settings.jwtTtlSeconds * 1000 + 1000);
    const later = await service.call('POST', '/api/auth/login', { body: { username: early.username, password: early.password } });
    await eventually(sessions, 1, 'only the live session is left');
    assert.equal((await service.call('GET', '/api/home', { token: later.body.data.jwt })).status, 200, 'and it works');
    assert.equal((await service.call('GET', '/api/home', { token: early.token })).status, 401, 'the ended one is refused as before');
    assert.equal(await gameTokens(), 1, 'the game token has not ended yet');
    assert.equal(await launcherSessions(), 1, 'nor the launcher session');

    clock.advance(GAME_TOKEN_LIFETIME_MS);
    await eventually(gameTokens, 0, 'the ended game token is removed');
    const validate = await service.call('POST', '/api/yggdrasil/authserver/validate', { body: { accessToken: game.body.accessToken } });
    assert.equal(validate.status, 403, 'and refused as before');
    assert.equal(await launcherSessions(), 1);

    clock.advance(REFRESH_LIFETIME_MS);
    await eventually(launcherSessions, 0, 'the ended launcher session is removed');
  });

  it('keeps no code in a sent mail, and removes the sent mail a day later', async () => {
    const mail = `${uniqueName()}@example.org`;
    await service.call('POST', '/api/auth/register', { body: { mail, password: 'correct horse battery' }, ip: randomAddress() });
    const code = codeIn(await service.mailbox.waitFor(mailTo(mail)));
    const outboxRow = () => service.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', mail).executeTakeFirst();
    const sent = async () => ((await outboxRow())?.sent_at ? 1 : 0);
    await eventually(sent, 1, 'the worker marks the mail sent');
    const row = (await outboxRow())!;
    assert.ok(!row.text_body.includes(code) && !row.html_body.includes(code), 'the sent mail no longer holds the code');
    assert.equal(row.subject.length > 0, true, 'the subject stays for the operator');

    const rows = async () => ((await outboxRow()) ? 1 : 0);
    clock.advance(SENT_MAIL_KEPT_MS - 60_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await rows(), 1, 'kept for a day');
    clock.advance(60_000);
    await eventually(rows, 0, 'gone a day after it was sent');
  });
});
