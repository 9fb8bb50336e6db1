// The budget of uncached renders (contract section 15b, the review's "render amplification"): at most 600 a minute per
// client address (/64), at most (cores) at once with at most 256 waiting; cached answers and 304s never limited; a
// page of 200 distinct heads from a cold cache still loads.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../http/envelope.ts';
import { MemoryCounterStore, RateLimiter } from '../ratelimit/limiter.ts';
import { decodePng, encodePng } from '../rendering/png.ts';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { fixture, skinFile } from '../../test/support/fixtures.ts';
import { OWNER, startService, uniqueName, type TestService } from '../../test/support/service.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';
import { RENDER_LIMITS, RenderQueue } from './render-queue.ts';

describe('the render queue', () => {
  const deferred = () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    return { done, release };
  };

  it('runs at most `running` at once, queues at most `waiting`, and refuses the rest with 503 and Retry-After: 1, uncounted', async () => {
    const clock = new ManualClock();
    const queue = new RenderQueue(new RateLimiter(new MemoryCounterStore(clock)), { running: 2, waiting: 3 });
    let inProgress = 0;
    let most = 0;
    const gate = deferred();
    const render = async () => {
      inProgress += 1;
      most = Math.max(most, inProgress);
      await gate.done;
      inProgress -= 1;
      return 'png';
    };
    const admitted = Array.from({ length: 5 }, () => queue.run('192.0.2.1', render));
    await new Promise((resolve) => setImmediate(resolve));
    const refused = await queue.run('192.0.2.2', render).catch((error: unknown) => error);
    assert.ok(refused instanceof ApiError);
    assert.equal(refused.status, 503);
    assert.deepEqual(refused.headers, { 'retry-after': '1' });
    gate.release();
    assert.deepEqual(await Promise.all(admitted), ['png', 'png', 'png', 'png', 'png']);
    assert.equal(most, 2, 'two at once, the others waited their turn');
    // The refused render was not counted: that address still has its whole minute.
    for (let render = 0; render < 600; render += 1) await queue.run('192.0.2.2', async () => 'png');
    await assert.rejects(
      queue.run('192.0.2.2', async () => 'png'),
      { status: 429 },
    );
  });

  it('counts 600 a minute per client address, an IPv6 /64 as one, each address apart', async () => {
    const clock = new ManualClock();
    const queue = new RenderQueue(new RateLimiter(new MemoryCounterStore(clock)));
    const draw = async () => 'png';
    for (let render = 0; render < 600; render += 1) await queue.run(`2001:db8:1:2::${render.toString(16)}`, draw);
    const refused = await queue.run('2001:db8:1:2::ffff', draw).catch((error: unknown) => error);
    assert.ok(refused instanceof ApiError);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(await queue.run('2001:db8:1:3::1', draw), 'png', 'another /64');
    clock.advance(60_000);
    assert.equal(await queue.run('2001:db8:1:2::1', draw), 'png', 'a new minute');
  });

  it('runs as many at once as the machine has cores, and queues 256', () => {
    assert.ok(RENDER_LIMITS.running >= 1);
    assert.equal(RENDER_LIMITS.waiting, 256);
  });
});

describeEachDatabase('the render budget of the image routes', (kind) => {
  const clock = new ManualClock();
  let service: TestService;
  let steve: { uuid: string; username: string; token: string };
  before(async () => {
    service = await startService(kind, { clock, settings: { owner: OWNER, profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: -1 } } });
    const registered = await service.registerPlayer();
    const uuid = (await service.call('GET', '/api/home', { token: registered.token })).body.data.Uuid as string;
    await service.upload('/api/home/skins', registered.token, {}, skinFile('classic'));
    steve = { ...registered, uuid };
  });
  after(async () => service?.close());

  const get = (url: string, ip: string, headers?: Record<string, string>) => service.call('GET', url, { ip, headers });

  it('refuses the 601st uncached render of an address with 429, while cached images, 304s and other addresses still answer', async () => {
    const crowd = '198.51.100.7';
    const variants: string[] = [];
    for (let size = 8; variants.length < 600; size += 1) {
      for (const overlay of ['true', 'false']) variants.push(`/api/skin/head/${steve.uuid}?size=${size}&overlay=${overlay}`);
    }
    const etags = new Map<string, string>();
    for (const url of variants) {
      const answer = await get(url, crowd);
      assert.equal(answer.status, 200, `${url}: ${answer.raw.toString()}`);
      etags.set(url, String(answer.headers.etag));
    }
    const next = await get(`/api/skin/head/${steve.uuid}?size=400`, crowd);
    assert.equal(next.status, 429);
    assert.ok(Number(next.headers['retry-after']) > 0 && Number(next.headers['retry-after']) <= 60);
    assert.match(next.body.msg, /^Too many new images were drawn for your address in the last minute/);
    const inRussian = await get(`/api/skin/body/${steve.uuid}?size=400`, crowd, { 'accept-language': 'ru' });
    assert.match(inRussian.body.msg, /^С вашего адреса за последнюю минуту/);
    // Drop-in URLs share the budget: Crafatar's and Minotar's renders are renders too.
    assert.equal((await get(`/renders/body/${steve.uuid}?scale=9`, crowd)).status, 429, 'Crafatar');
    assert.equal((await get(`/body/${steve.username}/299`, crowd)).status, 429, 'Minotar');

    // What is in the cache is answered to the same address, by any URL that draws it, and so is a revalidation.
    const [first] = variants as [string];
    assert.equal((await get(first, crowd)).status, 200, 'the same URL again');
    assert.equal((await get(`/api/skin/head/${steve.username}?size=8&overlay=true`, crowd)).status, 200, 'another URL, a cached render');
    assert.equal((await get(`/avatars/${steve.uuid}?size=8&overlay`, crowd)).status, 200, "Crafatar's avatar of a cached render");
    const revalidated = await get(variants[1]!, crowd, { 'if-none-match': etags.get(variants[1]!)! });
    assert.equal(revalidated.status, 304);
    assert.equal((await get(`/skins/${steve.uuid}`, crowd)).status, 200, 'a skin file is no render');

    // Another address renders; the crowd's next minute too.
    assert.equal((await get(`/api/skin/head/${steve.uuid}?size=401`, '203.0.113.9')).status, 200, 'another address');
    clock.advance(60_000);
    assert.equal((await get(`/api/skin/head/${steve.uuid}?size=402`, crowd)).status, 200, 'a minute later');
  });

  it('answers a revalidation of an image it no longer has without drawing it: never limited', async () => {
    const crowd = '198.51.100.8';
    const url = `/api/skin/bust/${steve.uuid}?size=77`;
    const etag = String((await get(url, '203.0.113.10')).headers.etag);
    // A restart empties every cache (and the counts kept in memory); the crowd then spends its minute on others.
    await service.restart();
    for (let variant = 0; variant < 600; variant += 1) {
      const answer = await get(`/api/skin/bust/${steve.uuid}?type=player&size=${8 + (variant % 300)}&overlay=${variant < 300}`, crowd);
      assert.equal(answer.status, 200, String(variant));
    }
    assert.equal((await get(url, crowd)).status, 429, 'not cached: it would be drawn');
    const revalidated = await get(url, crowd, { 'if-none-match': etag });
    assert.equal(revalidated.status, 304, 'the browser has it: nothing to draw');
    assert.equal(revalidated.raw.length, 0);
    assert.equal((await get(url, crowd)).status, 429, 'and the 304 left no empty answer behind to serve');
  });

  it('loads a page of 200 distinct players’ heads from a cold cache: 200 requests at once, all 200', async () => {
    const visitor = '198.51.100.99';
    const heads: string[] = [];
    for (const account of [await service.registerPlayer(), await service.registerPlayer()]) {
      for (let profile = 0; profile < 100; profile += 1) {
        const added = await service.call('POST', '/api/home/profiles', { token: account.token, body: { name: uniqueName('Pg') } });
        assert.equal(added.status, 201, added.body.msg);
        // A picture of its own (one pixel differs), so that no two heads are one render.
        const picture = decodePng(fixture('skins/classic.png'));
        picture.data.set([heads.length, profile, 7, 255], (8 * 64 + 8) * 4);
        const skin = await service.upload('/api/home/skins', account.token, {}, skinFile(`s${heads.length}`, encodePng(picture)));
        assert.equal(skin.status, 200, skin.body.msg);
        const dressed = await service.call('PATCH', `/api/home/profiles/${added.body.data.uuid}`, {
          token: account.token,
          body: { selected_skin: skin.body.data.uuid },
        });
        assert.equal(dressed.status, 200, dressed.body.msg);
        heads.push(`/api/skin/head/${added.body.data.uuid}?type=player&size=64&overlay=false`);
      }
    }
    const answers = await Promise.all(heads.map((url) => get(url, visitor)));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      heads.map(() => 200),
    );
    assert.equal(new Set(answers.map((answer) => answer.raw.toString('base64'))).size, 200, 'each head its own');
  });
});
