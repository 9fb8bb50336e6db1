// The OAuth clients admins register (contract section 18), with openid-client as the registered site or launcher:
// a confidential client's secret (shown once, stored hashed) sent by client_secret_basic and client_secret_post, a
// public client and the device grant, redirects changed, a deleted client's grants ended, rights and bad input.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { CookieJar, fetchThrough, oidc } from '../../test/support/oidc-launcher.ts';
import { PUBLIC_URL, randomAddress, startService, type TestService } from '../../test/support/service.ts';
import { tokenHash } from '../http/secrets.ts';
import { MAX_REDIRECT_URIS } from './routes.ts';

const API = '/api/yggdrasil';
const CLIENTS = '/api/admin/oauth/clients';
const SCOPE = 'openid offline_access Yggdrasil.PlayerProfiles.Select Yggdrasil.Server.Join';
const REDIRECT = 'https://play.example.org/oauth/callback';

describeEachDatabase('OAuth clients admins register', (kind) => {
  let service: TestService;
  let admin: { token: string; id: number };

  before(async () => {
    service = await startService(kind);
    admin = await withPerms(2);
  });
  after(async () => service?.close());

  async function withPerms(perms: number) {
    const player = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms }).where('username', '=', player.username).execute();
    const { id } = await service.db.selectFrom('users').select('id').where('username', '=', player.username).executeTakeFirstOrThrow();
    return { ...player, id };
  }
  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    return { ...registered, uuid: (home.Uuid as string).replace(/-/g, '') };
  };
  const register = (body: Record<string, unknown>, token = admin.token) => service.call('POST', CLIENTS, { token, body });
  const clientCount = async () => (await service.db.selectFrom('oauth_clients').select('id').execute()).length;
  const form = (path: string, fields: Record<string, string>) =>
    service.call('POST', path, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const join = (accessToken: string, profile: string) =>
    service.call('POST', `${API}/sessionserver/session/minecraft/join`, {
      body: { accessToken, selectedProfile: profile, serverId: 'server' },
      ip: randomAddress(),
    });
  const validate = (accessToken: string) => service.call('POST', `${API}/authserver/validate`, { body: { accessToken } });
  const auditOf = (action: string) =>
    service.db.selectFrom('audit_log').select(['actor_id', 'target_id', 'details']).where('action', '=', action).execute();

  /** openid-client configured as the client `id`, authenticating with `auth`. */
  async function configOf(id: string, auth: oidc.ClientAuth) {
    const fetch = fetchThrough(service);
    const config = await oidc.discovery(new URL(PUBLIC_URL), id, undefined, auth, {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: fetch,
    });
    config[oidc.customFetch] = fetch;
    return config;
  }

  /** The authorization page opened with `redirect`, as the client's site sends the browser there. */
  async function openAuthorization(config: oidc.Configuration, redirect: string, verifier: string) {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = new CookieJar();
    const opened = await service.call('GET', url.pathname + url.search, { ip: randomAddress() });
    browser.take(opened.headers);
    return { opened, browser };
  }

  /** The whole authorization code flow: the player logged in with `token` approves, the client exchanges the code. */
  async function codeFlow(config: oidc.Configuration, token: string, redirect = REDIRECT) {
    const verifier = oidc.randomPKCECodeVerifier();
    const { opened, browser } = await openAuthorization(config, redirect, verifier);
    assert.equal(opened.status, 303, opened.raw.toString());
    const uid = new URL(String(opened.headers.location), PUBLIC_URL).searchParams.get('uid')!;
    const approved = await service.call('POST', '/api/oauth/consent', { token, body: { uid, approve: true }, headers: browser.header() });
    assert.equal(approved.status, 200, approved.body.msg);
    const back = await service.call('GET', new URL(approved.body.data.redirect, PUBLIC_URL).pathname, { headers: browser.header() });
    const callback = new URL(String(back.headers.location));
    assert.equal(`${callback.origin}${callback.pathname}`, redirect);
    return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  }

  it('registers a confidential client whose secret, shown once and stored hashed, works as basic and post', async () => {
    const steve = await player();
    const created = await register({ name: '  Server website ', redirect_uris: [REDIRECT], public: false, device: false });
    assert.equal(created.status, 201, created.body.msg);
    const { id, secret, ...rest } = created.body.data;
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal(typeof secret, 'string');
    assert.ok(secret.length >= 43, 'at least 256 bits');
    assert.deepEqual(rest, { name: 'Server website', redirect_uris: [REDIRECT], public: false, device: false });
    const row = await service.db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.secret_hash, tokenHash(secret), 'stored as its hash');
    assert.ok(!JSON.stringify(row).includes(secret), 'not in clear');
    const listed = (await service.call('GET', CLIENTS, { token: admin.token })).body.data;
    assert.deepEqual(
      listed.find((client: { id: string }) => client.id === id),
      { id, ...rest },
      'listed without its secret',
    );

    const basic = await codeFlow(await configOf(id, oidc.ClientSecretBasic(secret)), steve.token);
    assert.deepEqual(basic.claims()!.selectedProfile, { id: steve.uuid, name: steve.username });
    assert.equal((await join(basic.access_token, steve.uuid)).status, 204);
    const post = await codeFlow(await configOf(id, oidc.ClientSecretPost(secret)), steve.token);
    assert.equal((await join(post.access_token, steve.uuid)).status, 204);
    const refreshed = await oidc.refreshTokenGrant(await configOf(id, oidc.ClientSecretPost(secret)), post.refresh_token!);
    assert.ok(refreshed.access_token);

    const basicHeader = (value: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${value}`).toString('base64')}` });
    for (const [fields, headers] of [
      [{}, basicHeader(`${secret}x`)],
      [{ client_id: id, client_secret: secret.slice(1) }, {}],
      [{ client_id: id }, {}],
    ] as const) {
      const refused = await service.call('POST', '/oauth/token', {
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token!, ...fields }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      assert.equal(refused.status, 401, JSON.stringify(fields));
      assert.equal(refused.body.error, 'invalid_client');
      assert.equal(refused.body.access_token, undefined);
    }
    const [entry] = (await auditOf('oauth.client.create')).filter((one) => JSON.parse(one.details!).client === id);
    assert.equal(entry?.target_id, admin.id, 'the acting admin is the target');
    assert.equal(entry?.actor_id, admin.id);
    assert.ok(!entry.details!.includes(secret));
  });

  it('lets a public client with the device grant log a launcher in; one without it is refused the grant', async () => {
    const alex = await player();
    const launcher = (await register({ name: 'Our launcher', redirect_uris: [], public: true, device: true })).body.data;
    assert.equal(launcher.secret, undefined, 'a public client has no secret');
    assert.equal(
      (await service.db.selectFrom('oauth_clients').select('secret_hash').where('id', '=', launcher.id).executeTakeFirstOrThrow())
        .secret_hash,
      null,
    );
    const config = await configOf(launcher.id, oidc.None());
    const started = await oidc.initiateDeviceAuthorization(config, { scope: SCOPE });
    const approved = await service.call('POST', '/api/oauth/consent', {
      token: alex.token,
      body: { user_code: started.user_code, approve: true },
    });
    assert.equal(approved.status, 200, approved.body.msg);
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
    assert.equal((await join(tokens.access_token, alex.uuid)).status, 204);

    const site = (await register({ name: 'Site without device', redirect_uris: ['http://127.0.0.1/cb'], public: true, device: false })).body
      .data;
    const refused = await form('/oauth/device', { client_id: site.id, scope: SCOPE });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'unauthorized_client');
  });

  it('changes the redirects: the old one is refused after', async () => {
    const steve = await player();
    const created = (await register({ name: 'Moving site', redirect_uris: [REDIRECT], public: false, device: false })).body.data;
    const config = await configOf(created.id, oidc.ClientSecretBasic(created.secret));
    const moved = 'https://new.example.org/cb';
    const patched = await service.call('PATCH', `${CLIENTS}/${created.id}`, { token: admin.token, body: { redirect_uris: [moved] } });
    assert.equal(patched.status, 200, patched.body.msg);
    assert.deepEqual(patched.body.data.redirect_uris, [moved]);
    const old = await openAuthorization(config, REDIRECT, oidc.randomPKCECodeVerifier());
    assert.equal(old.opened.status, 400);
    assert.equal(old.opened.body.error, 'invalid_redirect_uri');
    const tokens = await codeFlow(config, steve.token, moved);
    assert.equal((await join(tokens.access_token, steve.uuid)).status, 204);
    const [entry] = (await auditOf('oauth.client.update')).filter((one) => JSON.parse(one.details!).client === created.id);
    assert.equal(entry?.target_id, admin.id);

    const renamed = await service.call('PATCH', `${CLIENTS}/${created.id}`, { token: admin.token, body: { name: 'Renamed' } });
    assert.deepEqual(renamed.body.data, { id: created.id, name: 'Renamed', redirect_uris: [moved], public: false, device: false });

    const loopback = await service.call('PATCH', `${CLIENTS}/${created.id}`, {
      token: admin.token,
      body: { redirect_uris: ['http://127.0.0.1/cb'] },
    });
    assert.equal(loopback.status, 200, loopback.body.msg);
    const local = await codeFlow(config, steve.token, 'http://127.0.0.1:5123/cb');
    assert.ok(local.access_token, 'a loopback redirect on any port');
  });

  it('deletes a client and ends its grants: the access token no longer joins or validates, the refresh token is refused', async () => {
    const steve = await player();
    const created = (await register({ name: 'Doomed site', redirect_uris: [REDIRECT], public: false, device: true })).body.data;
    const config = await configOf(created.id, oidc.ClientSecretBasic(created.secret));
    const tokens = await codeFlow(config, steve.token);
    assert.equal((await validate(tokens.access_token)).status, 204);
    assert.equal((await join(tokens.access_token, steve.uuid)).status, 204);

    const deleted = await service.call('DELETE', `${CLIENTS}/${created.id}`, { token: admin.token });
    assert.equal(deleted.status, 200, deleted.body.msg);
    assert.equal((await validate(tokens.access_token)).status, 403);
    assert.equal((await join(tokens.access_token, steve.uuid)).status, 403);
    await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token!));
    await assert.rejects(oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub));
    assert.deepEqual((await service.call('GET', '/api/home/oauth/grants', { token: steve.token })).body.data, []);
    assert.equal(await service.db.selectFrom('oauth_clients').select('id').where('id', '=', created.id).executeTakeFirst(), undefined);
    const [entry] = (await auditOf('oauth.client.delete')).filter((one) => JSON.parse(one.details!).client === created.id);
    assert.equal(entry?.target_id, admin.id);
    const { id: steveId } = await service.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', steve.username)
      .executeTakeFirstOrThrow();
    assert.ok(
      (await auditOf('oauth.revoke')).some((one) => one.target_id === steveId),
      "in the player's trail too",
    );

    assert.equal((await service.call('DELETE', `${CLIENTS}/${created.id}`, { token: admin.token })).status, 404);
    const shared = (await service.call('GET', '/.well-known/openid-configuration')).body.shared_client_id;
    assert.equal((await service.call('DELETE', `${CLIENTS}/${shared}`, { token: admin.token })).status, 404, 'not the shared client');
    assert.equal((await service.call('PATCH', `${CLIENTS}/${shared}`, { token: admin.token, body: { name: 'Mine' } })).status, 404);
  });

  it('lets moderators list the clients but only admins change them', async () => {
    const created = (await register({ name: 'Listed', redirect_uris: [REDIRECT], public: true, device: false })).body.data;
    const moderator = await withPerms(1);
    const listed = await service.call('GET', CLIENTS, { token: moderator.token });
    assert.equal(listed.status, 200);
    assert.ok(listed.body.data.some((client: { id: string }) => client.id === created.id));
    assert.ok(
      listed.body.data.every((client: { builtin?: unknown }) => !('secret' in client)),
      'no secrets',
    );
    const before = await clientCount();
    const body = { name: 'Sneaky', redirect_uris: [REDIRECT], public: true, device: true };
    assert.equal((await register(body, moderator.token)).status, 403);
    assert.equal((await service.call('PATCH', `${CLIENTS}/${created.id}`, { token: moderator.token, body: { name: 'x' } })).status, 403);
    assert.equal((await service.call('DELETE', `${CLIENTS}/${created.id}`, { token: moderator.token })).status, 403);
    const someone = await service.registerPlayer();
    assert.equal((await service.call('GET', CLIENTS, { token: someone.token })).status, 403);
    assert.equal((await register(body, someone.token)).status, 403);
    assert.equal((await service.call('GET', CLIENTS)).status, 401);
    assert.equal(await clientCount(), before);
  });

  it('refuses bad input with a 400 and stores nothing', async () => {
    const before = await clientCount();
    const base = { name: 'Bad', redirect_uris: [REDIRECT], public: false, device: false };
    for (const body of [
      { ...base, redirect_uris: ['not a url'] },
      { ...base, redirect_uris: ['http://play.example.org/cb'] },
      { ...base, redirect_uris: ['https://play.example.org/cb#part'] },
      { ...base, redirect_uris: ['https://play.example.org/cb#'] },
      { ...base, redirect_uris: ['ftp://play.example.org/cb'] },
      { ...base, redirect_uris: Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, i) => `https://play.example.org/${i}`) },
      { ...base, redirect_uris: [], device: false },
      { ...base, name: '' },
      { ...base, name: '   ' },
      { ...base, public: 'yes' },
      { ...base, secret: 'chosen' },
      { name: 'Missing fields' },
    ]) {
      const answer = await register(body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error, true);
      assert.ok(answer.body.msg, 'a message says what is wrong');
    }
    assert.equal(await clientCount(), before);
    const named = await register({ ...base, redirect_uris: [REDIRECT, 'http://play.example.org/cb'] });
    assert.match(named.body.msg, /http:\/\/play\.example\.org\/cb/, 'the message names the refused redirect');

    const created = (await register(base)).body.data;
    for (const body of [{}, { redirect_uris: ['http://example.org/cb'] }, { redirect_uris: [] }, { public: true }, { name: '' }]) {
      assert.equal(
        (await service.call('PATCH', `${CLIENTS}/${created.id}`, { token: admin.token, body })).status,
        400,
        JSON.stringify(body),
      );
    }
    const listed = (await service.call('GET', CLIENTS, { token: admin.token })).body.data;
    assert.deepEqual(
      listed.find((client: { id: string }) => client.id === created.id),
      { id: created.id, name: 'Bad', redirect_uris: [REDIRECT], public: false, device: false },
      'unchanged',
    );
  });
});
