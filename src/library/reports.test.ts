// Reports of library entries and the moderation queue (contract section 19): what a reporter, a moderator, an admin
// and the players whose pictures are concerned notice.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { decodePng, encodePng } from '../rendering/png.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';
import { MAX_REPORTS_PER_DAY } from './reports.ts';

/** A skin picture nobody else has. */
const uniqueSkin = (seed: number) => {
  const picture = decodePng(fixture('skins/classic.png'));
  picture.data.set([seed % 256, Math.floor(seed / 256) % 256, 9, 255], 0);
  return skinFile(`skin-${seed}`, encodePng(picture));
};

describeEachDatabase('library reports and the moderation queue', (kind) => {
  let service: TestService;
  let ownerToken: string;
  let seed = 3000;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER, userCapes: true } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  const player = () => service.registerPlayer();
  const withLevel = async (perms: number) => {
    const account = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms }).where('username', '=', account.username).execute();
    return account;
  };
  /** A published entry of a fresh picture, and its owner. */
  const published = async (owner?: Awaited<ReturnType<typeof player>>, name = 'Skin') => {
    const by = owner ?? (await player());
    const skin = (await service.upload('/api/home/skins', by.token, { name }, uniqueSkin(seed++))).body.data;
    const entry = (await service.call('POST', `/api/home/skins/${skin.uuid}/publish`, { token: by.token, body: { source: 'original' } }))
      .body.data;
    return { owner: by, skin, entry };
  };
  const report = (token: string, id: number, body: object = { reason: 'inappropriate' }) =>
    service.call('POST', `/api/library/${id}/reports`, { token, body });
  const act = (token: string, id: number, body: object) => service.call('POST', `/api/admin/reports/${id}/actions`, { token, body });
  const queue = async (token: string, query = 'state=open') =>
    (await service.call('GET', `/api/admin/reports?kind=library&${query}`, { token })).body.data as {
      id: number;
      state: string;
      entry: { id: number; state: string } | null;
    }[];

  it('takes one open report per player and entry, refuses unknown, withdrawn and own entries, and shows it in the queue', async () => {
    const { owner, skin, entry } = await published(undefined, 'Rude hoodie');
    const alice = await player();
    const first = await report(alice.token, entry.id, { reason: 'copyright', message: 'I drew this' });
    assert.equal(first.status, 201, first.body.msg);
    assert.equal(first.body.data.state, 'open');
    assert.equal(first.body.data.entry.name, 'Rude hoodie');

    const second = await report(alice.token, entry.id, { reason: 'inappropriate' });
    assert.equal(second.status, 409);
    assert.equal(second.body.error, true, 'in our envelope');
    assert.match(second.body.msg, /reported this entry already/);
    assert.equal((await report(alice.token, 999_999)).status, 404, 'unknown entry');
    assert.equal((await report(owner.token, entry.id)).status, 409, 'own entry');
    assert.equal((await report(alice.token, entry.id, { reason: 'rude' })).status, 400, 'unknown reason');
    assert.equal((await report(alice.token, entry.id, { reason: 'other' })).status, 400, 'other needs a message');
    assert.equal((await service.call('POST', `/api/library/${entry.id}/reports`, { body: { reason: 'other' } })).status, 401);
    // The contract's form: the reason in one's own words.
    const bob = await player();
    const worded = await service.call('POST', `/api/library/${entry.id}/report`, { token: bob.token, body: { reason: 'Offensive words' } });
    assert.equal(worded.status, 201, worded.body.msg);
    assert.equal(worded.body.data.reason, 'other');
    assert.equal(worded.body.data.message, 'Offensive words');

    const moderator = await withLevel(1);
    const open = await service.call('GET', '/api/admin/reports?kind=library&state=open', { token: moderator.token });
    assert.equal(open.status, 200);
    const mine = open.body.data.find((item: { id: number }) => item.id === first.body.data.id);
    assert.equal(mine.reporter.name, alice.username);
    assert.equal(mine.entry.owner.name, owner.username);
    assert.equal(mine.reason, 'copyright');
    assert.equal(mine.message, 'I drew this');
    assert.deepEqual(
      mine.history.map((item: { id: number }) => item.id),
      [worded.body.data.id],
      "the entry's other report",
    );
    assert.ok(Number(open.headers['x-total-count']) >= 2);
    assert.equal((await service.call('GET', '/api/admin/reports', { token: alice.token })).status, 403, 'players see no queue');

    await service.call('DELETE', `/api/home/skins/${skin.uuid}/publish`, { token: owner.token });
    assert.equal((await report((await player()).token, entry.id)).status, 404, 'withdrawn entry');
  });

  it(`takes at most ${MAX_REPORTS_PER_DAY} reports from a player in any 24 hours`, async () => {
    const carol = await player();
    const entries = [];
    for (let index = 0; index <= MAX_REPORTS_PER_DAY; index += 1) entries.push((await published()).entry);
    for (const entry of entries.slice(0, MAX_REPORTS_PER_DAY)) assert.equal((await report(carol.token, entry.id)).status, 201);
    const refused = await report(carol.token, entries.at(-1).id);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });

  it('lets a moderator dismiss or unpublish, closing every open report of the entry, and keeps admin actions for admins', async () => {
    const moderator = await withLevel(1);
    const { entry } = await published();
    const a = (await report((await player()).token, entry.id)).body.data;
    const b = (await report((await player()).token, entry.id)).body.data;

    for (const action of ['remove_everywhere', 'block_digest', 'ban_owner'])
      assert.equal((await act(moderator.token, a.id, { action })).status, 403, action);
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 200, 'nothing changed');
    assert.equal((await act(moderator.token, a.id, { action: 'shrug' })).status, 400);
    assert.equal((await act(moderator.token, 999_999, { action: 'dismiss' })).status, 404);

    const done = await act(moderator.token, a.id, { action: 'unpublish', reason: 'not theirs' });
    assert.equal(done.status, 200, done.body.msg);
    assert.equal(done.body.data.state, 'actioned');
    assert.equal(done.body.data.action, 'unpublish');
    assert.equal(done.body.data.closed_by, moderator.username);
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404, 'unpublished');
    const closed = await queue(moderator.token, 'status=resolved');
    assert.equal(closed.find((item) => item.id === b.id)?.state, 'actioned', 'the other report closed with it');
    assert.equal((await queue(moderator.token)).filter((item) => item.entry?.id === entry.id).length, 0);
    assert.equal((await act(moderator.token, b.id, { action: 'dismiss' })).status, 409, 'closed already');

    const other = (await published()).entry;
    const c = (await report((await player()).token, other.id)).body.data;
    const dismissed = await service.call('PATCH', `/api/admin/reports/${c.id}`, { token: moderator.token, body: { action: 'dismiss' } });
    assert.equal(dismissed.body.data.state, 'dismissed');
    assert.equal((await service.call('GET', `/api/library/${other.id}`)).status, 200, 'dismissing keeps the entry');
    assert.ok((await queue(moderator.token, 'state=closed')).some((item) => item.id === c.id));
    // A player may report it again once the report is closed.
    assert.equal((await report((await player()).token, other.id)).status, 201);

    const audit = await service.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', 'in', ['report.create', 'report.resolve'])
      .execute();
    assert.ok(audit.some((row) => row.action === 'report.resolve' && JSON.parse(row.details!).reports.includes(b.id)));
  });

  it('removes a picture from every wardrobe, unwearing it and mailing its owners in their language', async () => {
    const { owner, entry } = await published(undefined, 'Forbidden');
    const saver = await player();
    await service.db.updateTable('users').set({ language: 'ru' }).where('username', '=', saver.username).execute();
    const copy = (await service.call('POST', `/api/library/${entry.id}/save`, { token: saver.token })).body.data;
    const worn = await service.call('PATCH', '/api/home', { token: saver.token, body: { selected_skin: copy.uuid } });
    assert.equal(worn.status, 200, worn.body.msg);
    const before = await service.db
      .selectFrom('users')
      .select('selected_skin_id')
      .where('username', '=', saver.username)
      .executeTakeFirstOrThrow();
    assert.notEqual(before.selected_skin_id, null);
    const r = (await report((await player()).token, entry.id)).body.data;

    const removed = await act(ownerToken, r.id, { action: 'remove_everywhere', reason: 'Offensive picture' });
    assert.equal(removed.status, 200, removed.body.msg);
    assert.equal(removed.body.data.entry.state, 'withdrawn', 'the entry stays listed in the report');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404);
    assert.equal((await service.call('GET', '/api/home/skins', { token: owner.token })).body.data.length, 0, "the owner's skin went");
    assert.equal((await service.call('GET', '/api/home/skins', { token: saver.token })).body.data.length, 0, 'the copy went');
    const saverRow = await service.db
      .selectFrom('users')
      .select('selected_skin_id')
      .where('username', '=', saver.username)
      .executeTakeFirstOrThrow();
    assert.equal(saverRow.selected_skin_id, null, 'wears nothing');

    const ownerMail = await service.mailbox.waitFor((message) => mailTo(owner.mail)(message) && /Forbidden/.test(message.subject ?? ''));
    assert.match(ownerMail.text ?? '', /that you published/);
    assert.match(ownerMail.text ?? '', /Reason: Offensive picture/);
    const saverMail = await service.mailbox.waitFor((message) => mailTo(saver.mail)(message) && /Forbidden/.test(message.subject ?? ''));
    assert.match(saverMail.subject ?? '', /удалён/, 'in Russian');
  });

  it('blocks the picture and bans the owner, unpublishing all their entries; a banned owner of a higher level is refused', async () => {
    const { owner, skin, entry } = await published();
    const second = await published(owner);
    const r = (await report((await player()).token, entry.id)).body.data;
    const r2 = (await report((await player()).token, second.entry.id)).body.data;

    const blocked = await act(ownerToken, r.id, { action: 'block_digest', reason: 'rude' });
    assert.equal(blocked.status, 200, blocked.body.msg);
    const blocks = (await service.call('GET', '/api/admin/texture-blocks', { token: ownerToken })).body.data;
    assert.ok(blocks.some((block: { digest: string }) => block.digest === skin.digest));
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404);

    const banned = await act(ownerToken, r2.id, { action: 'ban_owner', reason: 'repeated abuse' });
    assert.equal(banned.status, 200, banned.body.msg);
    assert.equal((await service.call('GET', `/api/library/${second.entry.id}`)).status, 404);
    const row = await service.db.selectFrom('users').select('perms').where('username', '=', owner.username).executeTakeFirstOrThrow();
    assert.equal(row.perms, -1);
    assert.equal((await service.call('GET', '/api/home', { token: owner.token })).status, 401, 'logged out');

    // An admin cannot ban the owner of an entry who is an admin too: 403, and the report stays open.
    const admin = await withLevel(2);
    const peer = await withLevel(2);
    const peerEntry = (await published(peer)).entry;
    const r3 = (await report((await player()).token, peerEntry.id)).body.data;
    assert.equal((await act(admin.token, r3.id, { action: 'ban_owner' })).status, 403);
    assert.ok(
      (await queue(admin.token)).some((item) => item.id === r3.id),
      'still open',
    );
    assert.equal((await service.call('GET', `/api/library/${peerEntry.id}`)).status, 200, 'still public');
  });
});

describeEachDatabase('library review (LIBRARY_REVIEW=true)', (kind) => {
  let service: TestService;
  let ownerToken: string;
  let seed = 5000;
  before(async () => {
    service = await startService(kind, { settings: { owner: OWNER, libraryReview: true } });
    ownerToken = await service.ownerToken();
  });
  after(async () => service?.close());

  const publish = async (token: string, name = 'Skin') => {
    const skin = (await service.upload('/api/home/skins', token, { name }, uniqueSkin(seed++))).body.data;
    return service.call('POST', `/api/home/skins/${skin.uuid}/publish`, { token, body: { source: 'original' } });
  };
  const pending = async (token: string) =>
    ((await service.call('GET', '/api/admin/library?state=pending', { token })).body.data as { id: number }[]).map((entry) => entry.id);

  it('keeps new entries pending, seen by their owner and moderators only, until a moderator approves them', async () => {
    const alice = await service.registerPlayer();
    const bob = await service.registerPlayer();
    const moderator = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: 1 }).where('username', '=', moderator.username).execute();

    const published = await publish(alice.token, 'Waiting hoodie');
    assert.equal(published.status, 201, published.body.msg);
    const entry = published.body.data;
    assert.equal(entry.state, 'pending');
    assert.equal((await service.call('GET', '/api/library?q=waiting')).body.data.length, 0, 'not in the public library');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404);
    const asOwner = await service.call('GET', `/api/library/${entry.id}`, { token: alice.token });
    assert.equal(asOwner.status, 200, 'its owner opens it');
    assert.equal(asOwner.body.data.state, 'pending');
    assert.equal(asOwner.body.data.name, 'Waiting hoodie');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`, { token: moderator.token })).body.data.state, 'pending');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`, { token: bob.token })).status, 404, 'another player');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`, { token: 'not a token' })).status, 404, 'a bad token');
    assert.equal((await service.call('POST', `/api/library/${entry.id}/save`, { token: bob.token })).status, 404);
    assert.equal(
      (await service.call('POST', `/api/library/${entry.id}/reports`, { token: bob.token, body: { reason: 'inappropriate' } })).status,
      404,
    );
    const own = (await service.call('GET', '/api/home/library', { token: alice.token })).body.data;
    assert.deepEqual(
      own.map((item: { id: number; state: string }) => [item.id, item.state]),
      [[entry.id, 'pending']],
      'the owner sees it as pending',
    );
    assert.equal((await service.call('GET', '/api/home/library', { token: bob.token })).body.data.length, 0);
    assert.ok((await pending(moderator.token)).includes(entry.id));
    assert.equal((await service.call('GET', '/api/admin/library', { token: bob.token })).status, 403);
    assert.equal(
      (await service.call('PATCH', `/api/admin/library/${entry.id}`, { token: bob.token, body: { state: 'public' } })).status,
      403,
    );

    const approved = await service.call('PATCH', `/api/admin/library/${entry.id}`, { token: moderator.token, body: { state: 'public' } });
    assert.equal(approved.status, 200, approved.body.msg);
    assert.equal(approved.body.data.state, 'public');
    assert.equal((await service.call('GET', '/api/library?q=waiting')).body.data[0].id, entry.id);
    assert.equal(
      (await service.call('PATCH', `/api/admin/library/${entry.id}`, { token: moderator.token, body: { state: 'refused' } })).status,
      409,
      'decided already',
    );
    assert.ok(!(await pending(moderator.token)).includes(entry.id));
  });

  it('refuses an entry and mails its owner; a review_exempt account publishes at once', async () => {
    const carol = await service.registerPlayer();
    await service.db.updateTable('users').set({ language: 'zh-CN' }).where('username', '=', carol.username).execute();
    const entry = (await publish(carol.token, 'Copied cape art')).body.data;
    const refused = await service.call('PATCH', `/api/admin/library/${entry.id}`, {
      token: ownerToken,
      body: { state: 'refused', reason: 'Copied' },
    });
    assert.equal(refused.status, 200, refused.body.msg);
    assert.equal(refused.body.data.state, 'refused');
    const mail = await service.mailbox.waitFor((message) => mailTo(carol.mail)(message) && /Copied cape art/.test(message.subject ?? ''));
    assert.match(mail.subject ?? '', /未获发布/, "in the owner's language");
    assert.match(mail.text ?? '', /Copied/);
    const own = (await service.call('GET', '/api/home/library', { token: carol.token })).body.data;
    assert.equal(own[0].state, 'refused');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`)).status, 404);
    assert.equal((await service.call('GET', `/api/library/${entry.id}`, { token: carol.token })).body.data.state, 'refused');
    assert.equal((await service.call('GET', `/api/library/${entry.id}`, { token: ownerToken })).body.data.state, 'refused');
    const stranger = await service.registerPlayer();
    assert.equal((await service.call('GET', `/api/library/${entry.id}`, { token: stranger.token })).status, 404);

    const dave = await service.registerPlayer();
    const exempt = await service.call('PATCH', `/api/admin/user/${dave.username}`, { token: ownerToken, body: { review_exempt: true } });
    assert.equal(exempt.status, 200, exempt.body.msg);
    assert.equal(exempt.body.data.ReviewExempt, true);
    assert.equal((await service.call('GET', `/api/admin/user/${dave.username}`, { token: ownerToken })).body.data.ReviewExempt, true);
    const trusted = await publish(dave.token, 'Trusted');
    assert.equal(trusted.body.data.state, 'public');
    assert.equal((await service.call('GET', `/api/library/${trusted.body.data.id}`)).status, 200);
    assert.equal(
      (
        await service.call('PATCH', `/api/admin/user/${dave.username}`, {
          token: (await service.registerPlayer()).token,
          body: { review_exempt: false },
        })
      ).status,
      403,
    );
  });
});
