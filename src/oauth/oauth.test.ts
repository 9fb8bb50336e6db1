// Yggdrasil Connect (contract sections 18 and 15b) with openid-client as the launcher: discovery, the device grant, the
// authorization code grant with PKCE and a loopback redirect, refresh rotation, userinfo, and the access token as a
// game token joining a server; and the attacks of the fourth security review: a consent from another browser, made-up
// scopes, stored rows for anyone, and endpoints advertised but not served.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pino from 'pino';
import { Housekeeping } from '../housekeeping/housekeeping.ts';
import { DEFAULT_PROFILE_SETTINGS } from '../settings.ts';
import { modelKey, userCodeKey } from './adapter.ts';
import { normalizedUserCode } from './user-codes.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { CookieJar, DEVICE_SCOPE, launcherConfig, oidc } from '../../test/support/oidc-launcher.ts';
import { PUBLIC_URL, randomAddress, startService, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

const API = '/api/yggdrasil';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** openid-client's error for an answer `{error: "invalid_grant"}`. */
const invalidGrant = (error: { error?: string }) => error.error === 'invalid_grant';

describeEachDatabase('Yggdrasil Connect', (kind) => {
  let service: TestService;
  let config: oidc.Configuration;
  let clientId: string;

  before(async () => {
    service = await startService(kind, { settings: { profiles: { ...DEFAULT_PROFILE_SETTINGS, maxProfiles: 3 } } });
    config = await launcherConfig(service);
    clientId = config.clientMetadata().client_id;
  });
  after(async () => service?.close());

  const idOf = async (mail: string) =>
    (await service.db.selectFrom('users').select('id').where('mail', '=', mail).executeTakeFirstOrThrow()).id;
  const player = async () => {
    const registered = await service.registerPlayer();
    const home = (await service.call('GET', '/api/home', { token: registered.token })).body.data;
    return { ...registered, uuid: (home.Uuid as string).replace(/-/g, '') };
  };
  /** A launcher's form post, from an address of its own unless `ip` is given (requests that store a row are limited
   * per address). */
  const form = (path: string, fields: Record<string, string>, ip = randomAddress()) =>
    service.call('POST', path, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip,
    });
  const deviceStart = (scope = DEVICE_SCOPE, ip?: string) => form('/oauth/device', { client_id: clientId, scope }, ip);
  const poll = (deviceCode: string) => form('/oauth/token', { grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode });
  /** The consent API, from the browser whose cookies `browser` holds (none: a browser that began nothing). */
  const consent = (token: string, body: Record<string, unknown>, browser?: CookieJar) =>
    service.call('POST', '/api/oauth/consent', { token, body, headers: browser?.header() ?? {} });
  const shownRequest = (token: string, body: Record<string, unknown>, browser?: CookieJar) =>
    service.call('POST', '/api/oauth/request', { token, body, headers: browser?.header() ?? {} });
  /** An authorization request begun in `browser` (openid-client's URL, opened there): the consent page's uid. */
  const beginAuthorization = async (browser: CookieJar, scope = DEVICE_SCOPE, ip = randomAddress()) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:40001/cb',
      scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const opened = await service.call('GET', url.pathname + url.search, { headers: browser.header(), ip });
    browser.take(opened.headers);
    return { opened, verifier, uid: new URL(String(opened.headers.location ?? '/'), PUBLIC_URL).searchParams.get('uid') };
  };
  const grantsOf = async (token: string) => (await service.call('GET', '/api/home/oauth/grants', { token })).body.data as unknown[];
  const join = (accessToken: string, profile: string, serverId: string) =>
    service.call('POST', `${API}/sessionserver/session/minecraft/join`, {
      body: { accessToken, selectedProfile: profile, serverId },
      ip: randomAddress(),
    });

  it('publishes its discovery document, and the game login names it', async () => {
    const discovery = (await service.call('GET', '/.well-known/openid-configuration')).body;
    assert.equal(discovery.issuer, PUBLIC_URL);
    for (const [field, path] of Object.entries({
      authorization_endpoint: '/oauth/authorize',
      device_authorization_endpoint: '/oauth/device',
      token_endpoint: '/oauth/token',
      userinfo_endpoint: '/oauth/userinfo',
      jwks_uri: '/oauth/jwks',
      revocation_endpoint: '/oauth/revoke',
    })) {
      assert.equal(discovery[field], `${PUBLIC_URL}${path}`, field);
    }
    assert.deepEqual([...discovery.scopes_supported].sort(), [
      'Yggdrasil.PlayerProfiles.Read',
      'Yggdrasil.PlayerProfiles.Select',
      'Yggdrasil.Server.Join',
      'email',
      'offline_access',
      'openid',
      'profile',
    ]);
    assert.deepEqual(discovery.response_types_supported, ['code']);
    assert.deepEqual([...discovery.grant_types_supported].sort(), ['authorization_code', 'refresh_token', DEVICE_GRANT]);
    assert.deepEqual(discovery.subject_types_supported, ['public']);
    assert.ok(discovery.id_token_signing_alg_values_supported.includes('RS256'));
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
    assert.ok(discovery.token_endpoint_auth_methods_supported.includes('none'));
    assert.match(discovery.shared_client_id, /^[0-9a-f]{32}$/);
    assert.equal(discovery.pushed_authorization_request_endpoint, undefined, 'pushed requests are not served');
    assert.equal(discovery.end_session_endpoint, undefined, "the library's logout page is not served");

    const meta = (await service.call('GET', `${API}/`)).body.meta;
    assert.equal(meta['feature.openid_configuration_url'], `${PUBLIC_URL}/.well-known/openid-configuration`);
    assert.equal(meta['feature.no_email_login'], true);
    assert.equal(meta['feature.non_email_login'], true);
  });

  it('logs a launcher in with the device grant: the player approves the code, the token joins a server', async () => {
    const steve = await player();
    const started = await oidc.initiateDeviceAuthorization(config, { scope: DEVICE_SCOPE });
    assert.match(started.user_code, /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    assert.equal(started.verification_uri, `${PUBLIC_URL}/device`);
    assert.equal(started.verification_uri_complete, `${PUBLIC_URL}/device?user_code=${started.user_code}`);
    assert.equal(started.expires_in, 600);
    assert.equal(started.interval, 5);

    const typed = started.user_code.replace('-', '').toLowerCase();
    const shown = await service.call('POST', '/api/oauth/request', { token: steve.token, body: { user_code: typed } });
    assert.equal(shown.status, 200, shown.body.msg);
    assert.equal(shown.body.data.client.id, clientId);
    assert.deepEqual(shown.body.data.profiles, [{ id: steve.uuid, name: steve.username }]);
    const approved = await consent(steve.token, { user_code: typed, approve: true });
    assert.equal(approved.status, 200, approved.body.msg);

    const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
    assert.ok(tokens.refresh_token, 'offline_access gives a refresh token');
    assert.equal(tokens.expires_in, 3 * 86400);
    const claims = tokens.claims()!;
    assert.deepEqual(claims.selectedProfile, { id: steve.uuid, name: steve.username });

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.deepEqual(userinfo.selectedProfile, { id: steve.uuid, name: steve.username });

    assert.equal((await join(tokens.access_token, steve.uuid, 'server-1')).status, 204);
    const joined = await service.call(
      'GET',
      `${API}/sessionserver/session/minecraft/hasJoined?username=${steve.username}&serverId=server-1`,
    );
    assert.equal(joined.status, 200);
    assert.equal(joined.body.id, steve.uuid);

    const refreshed = await service.call('POST', `${API}/authserver/refresh`, { body: { accessToken: tokens.access_token } });
    assert.equal(refreshed.status, 403, 'the password refresh refuses an OAuth token');
  });

  it('answers a launcher polling the device grant: pending, slow_down, access_denied, expired_token, invalid_grant', async () => {
    const alex = await player();
    const started = (await deviceStart()).body;
    assert.equal((await poll(started.device_code)).body.error, 'authorization_pending');
    assert.equal((await poll(started.device_code)).body.error, 'slow_down', 'a poll sooner than the interval');
    assert.equal((await poll('no-such-device-code')).body.error, 'invalid_grant');

    const refused = await consent(alex.token, { user_code: started.user_code, approve: false });
    assert.equal(refused.status, 200);
    const denied = await poll(started.device_code);
    assert.equal(denied.status, 400);
    assert.equal(denied.body.error, 'access_denied');
    assert.equal(denied.body.access_token, undefined);
    const again = await consent(alex.token, { user_code: started.user_code, approve: true });
    assert.equal(again.status, 404, 'a settled code is not offered again');

    const late = (await deviceStart()).body;
    const [row] = await service.db
      .selectFrom('oauth_models')
      .select(['id', 'payload'])
      .where('model', '=', 'DeviceCode')
      .execute()
      .then((rows) => rows.filter((one) => JSON.parse(one.payload).userCode === late.user_code.replace('-', '')));
    const payload = JSON.parse(row!.payload);
    payload.exp = Math.floor(Date.now() / 1000) - 1;
    await service.db
      .updateTable('oauth_models')
      .set({ payload: JSON.stringify(payload) })
      .where('id', '=', row!.id)
      .execute();
    assert.equal((await poll(late.device_code)).body.error, 'expired_token');
    assert.equal((await consent(alex.token, { user_code: late.user_code, approve: true })).status, 404, 'an expired code');
  });

  it('answers at every endpoint its discovery document names (none is a 404)', async () => {
    const discovery = (await service.call('GET', '/.well-known/openid-configuration')).body;
    const advertised = Object.entries(discovery).filter(([field]) => field.endsWith('_endpoint') || field === 'jwks_uri');
    assert.ok(advertised.length >= 6, JSON.stringify(advertised));
    for (const [field, address] of advertised) {
      const path = new URL(String(address)).pathname;
      const answers = [(await service.call('GET', path)).status, (await form(path, {})).status];
      assert.ok(
        answers.some((status) => status !== 404),
        `${field} ${path} answered ${answers.join(' and ')}`,
      );
    }
  });

  it('refuses scopes it does not know (invalid_scope) on device and authorization requests, and stores nothing', async () => {
    const rows = async () => (await service.db.selectFrom('oauth_models').select('id').execute()).length;
    const before = await rows();
    const device = await deviceStart('openid admin Yggdrasil.Server.Join');
    assert.equal(device.status, 400, device.raw.toString());
    assert.equal(device.body.error, 'invalid_scope');
    assert.equal(device.body.user_code, undefined);
    const { opened } = await beginAuthorization(new CookieJar(), 'openid Verified_by_the_server_staff Yggdrasil.Server.Join');
    // The client and its redirect are good: the refusal goes back to the launcher, never to a consent page.
    const back = new URL(String(opened.headers.location));
    assert.equal(`${back.origin}${back.pathname}`, 'http://127.0.0.1:40001/cb');
    assert.equal(back.searchParams.get('error'), 'invalid_scope');
    assert.equal(await rows(), before, 'no device code, no interaction');
  });

  it('refuses Select and Read asked together', async () => {
    const answer = await deviceStart('openid Yggdrasil.PlayerProfiles.Select Yggdrasil.PlayerProfiles.Read');
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, 'invalid_scope');
  });

  it('takes a consent only from the browser that began the authorization: a link sent to another grants nothing', async () => {
    const victim = await player();
    const attacker = new CookieJar();
    const { uid } = await beginAuthorization(attacker);
    assert.ok(uid);
    // The victim opens the attacker's /authorize?uid= link: in a browser that began nothing, or its own other request.
    const victimBrowser = new CookieJar();
    const own = await beginAuthorization(victimBrowser);
    assert.ok(own.uid && own.uid !== uid);
    for (const browser of [undefined, victimBrowser]) {
      const shown = await shownRequest(victim.token, { uid }, browser);
      assert.equal(shown.status, 400, shown.raw.toString());
      assert.match(shown.body.msg, /not begun in this browser/);
      assert.equal(shown.body.data.client, undefined, 'the request is not shown');
      for (const approve of [true, false]) {
        const answered = await consent(victim.token, { uid, approve }, browser);
        assert.equal(answered.status, 400, answered.raw.toString());
      }
    }
    assert.deepEqual(await grantsOf(victim.token), [], 'nothing granted');
    assert.equal(
      (
        await service.db
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'oauth.grant')
          .where('target_id', '=', await idOf(victim.mail))
          .execute()
      ).length,
      0,
    );
    // The attacker's browser goes on: the request was never answered, so it gets no code.
    const resumed = await service.call('GET', `/oauth/authorize/${uid}`, { headers: attacker.header() });
    assert.doesNotMatch(String(resumed.headers.location ?? ''), /[?&]code=/, resumed.raw.toString());
    // The victim's own request, in the victim's own browser, is theirs to answer.
    assert.equal((await shownRequest(victim.token, { uid: own.uid }, victimBrowser)).status, 200);
    assert.equal((await consent(victim.token, { uid: own.uid, approve: true }, victimBrowser)).status, 200);
    assert.equal((await grantsOf(victim.token)).length, 1);

    // One request waiting per browser: a second begun there replaces the first, which is then refused as elsewhere.
    const first = await beginAuthorization(victimBrowser);
    const second = await beginAuthorization(victimBrowser);
    assert.equal((await consent(victim.token, { uid: first.uid, approve: true }, victimBrowser)).status, 400);
    assert.equal((await consent(victim.token, { uid: second.uid, approve: true }, victimBrowser)).status, 200);
  });

  it('mails the player, in their language, each launcher they let in', async () => {
    const steve = await player();
    assert.equal((await service.call('PATCH', '/api/home', { token: steve.token, body: { language: 'ru' } })).status, 200);
    const started = (await deviceStart()).body;
    assert.equal((await consent(steve.token, { user_code: started.user_code, approve: true })).status, 200);
    const mail = await service.mailbox.waitFor((one) => mailTo(steve.mail)(one) && /Лаунчеру разрешён вход/.test(one.subject ?? ''));
    assert.match(mail.text ?? '', /через Yggdrasil Connect/);
    assert.match(
      mail.text ?? '',
      new RegExp(`профилем ${steve.username}: заходит с ним на игровые серверы и может менять его скин и плащ`),
    );
    assert.match(mail.text ?? '', new RegExp(`${PUBLIC_URL}/home`));
    const refused = (await deviceStart()).body;
    assert.equal((await consent(steve.token, { user_code: refused.user_code, approve: false })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(
      service.mailbox.messages.filter((one) => mailTo(steve.mail)(one) && /Лаунчеру/.test(one.subject ?? '')).length,
      1,
      'a refusal lets nothing in and mails nothing',
    );
  });

  it('lets a player with several profiles choose one, which the token acts for', async () => {
    const owner = await player();
    const second = await service.call('POST', '/api/home/profiles', {
      token: owner.token,
      body: { name: `Alt${owner.username.slice(-6)}` },
    });
    assert.equal(second.status, 201, second.body.msg);
    const altId = second.body.data.uuid.replace(/-/g, '');
    const started = (await deviceStart()).body;
    const shown = await service.call('POST', '/api/oauth/request', { token: owner.token, body: { user_code: started.user_code } });
    assert.equal(shown.body.data.profiles.length, 2);
    assert.equal((await consent(owner.token, { user_code: started.user_code, approve: true })).status, 400, 'a profile must be chosen');
    assert.equal((await consent(owner.token, { user_code: started.user_code, approve: true, profile: altId })).status, 200);
    const tokens = (await poll(started.device_code)).body;
    assert.ok(tokens.access_token);
    assert.equal((await join(tokens.access_token, owner.uuid, 'server-2')).status, 403, 'not the chosen profile');
    assert.equal((await join(tokens.access_token, altId, 'server-2')).status, 204);
  });

  it('with Read, lists every profile in the ID token and userinfo, and its token joins no server', async () => {
    const owner = await player();
    const second = await service.call('POST', '/api/home/profiles', {
      token: owner.token,
      body: { name: `Rd${owner.username.slice(-8)}` },
    });
    assert.equal(second.status, 201, second.body.msg);
    const alt = { id: second.body.data.uuid.replace(/-/g, ''), name: second.body.data.name as string };
    const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid Yggdrasil.PlayerProfiles.Read Yggdrasil.Server.Join' });
    const shown = await service.call('POST', '/api/oauth/request', { token: owner.token, body: { user_code: started.user_code } });
    assert.equal(shown.status, 200, shown.body.msg);
    assert.equal((await consent(owner.token, { user_code: started.user_code, approve: true })).status, 200, 'no profile to choose');
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, started);
    const claims = tokens.claims()!;
    const everyProfile = [{ id: owner.uuid, name: owner.username }, alt].sort((a, b) => a.id.localeCompare(b.id));
    const sorted = (profiles: unknown) => [...(profiles as { id: string }[])].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(sorted(claims.availableProfiles), everyProfile);
    assert.equal(claims.selectedProfile, undefined);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.deepEqual(sorted(userinfo.availableProfiles), everyProfile);
    assert.equal((await join(tokens.access_token, owner.uuid, 'server-read')).status, 403, 'without Select it is no game token');
  });

  it("counts its game tokens in the account's cap of 10: ten game logins later the launcher's token is revoked", async () => {
    const steve = await player();
    const started = (await deviceStart()).body;
    assert.equal((await consent(steve.token, { user_code: started.user_code, approve: true })).status, 200);
    const tokens = (await poll(started.device_code)).body;
    assert.equal((await join(tokens.access_token, steve.uuid, 'server-cap-1')).status, 204);
    for (let login = 0; login < 10; login++) {
      const answer = await service.call('POST', `${API}/authserver/authenticate`, {
        body: { username: steve.username, password: steve.password, agent: { name: 'Minecraft', version: 1 } },
        ip: randomAddress(),
      });
      assert.equal(answer.status, 200, answer.raw.toString());
    }
    assert.equal((await join(tokens.access_token, steve.uuid, 'server-cap-2')).status, 403, 'the oldest of eleven goes');
  });

  it('logs a launcher in through the browser: PKCE S256 and a loopback redirect on any port', async () => {
    const steve = await player();
    const verifier = oidc.randomPKCECodeVerifier();
    const redirect = 'http://127.0.0.1:51234/yggdrasil/callback';
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: 'openid offline_access profile email Yggdrasil.PlayerProfiles.Select Yggdrasil.Server.Join',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const browser = new CookieJar();
    const opened = await service.call('GET', url.pathname + url.search, { headers: browser.header(), ip: randomAddress() });
    assert.equal(opened.status, 303, opened.raw.toString());
    browser.take(opened.headers);
    const page = new URL(String(opened.headers.location), PUBLIC_URL);
    assert.equal(page.pathname, '/authorize');
    const uid = page.searchParams.get('uid')!;
    const shown = await shownRequest(steve.token, { uid }, browser);
    assert.equal(shown.status, 200, shown.body.msg);
    const approved = await consent(steve.token, { uid, approve: true }, browser);
    assert.equal(approved.status, 200, approved.body.msg);
    const resumed = new URL(approved.body.data.redirect, PUBLIC_URL);
    const back = await service.call('GET', resumed.pathname, { headers: browser.header() });
    assert.equal(back.status, 303, back.raw.toString());
    const callback = new URL(String(back.headers.location));
    assert.equal(`${callback.origin}${callback.pathname}`, redirect);

    const wrong = await form('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: callback.searchParams.get('code')!,
      redirect_uri: redirect,
      code_verifier: oidc.randomPKCECodeVerifier(),
    });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'invalid_grant');
    assert.equal(wrong.body.access_token, undefined);
  });

  it('exchanges the code of a browser login with its verifier, refreshes with rotation, and revokes the grant on reuse', async () => {
    const steve = await player();
    const tokens = await browserLogin(steve.token);
    const claims = tokens.claims()!;
    assert.deepEqual(claims.selectedProfile, { id: steve.uuid, name: steve.username });
    assert.equal(claims.nickname, steve.username);
    assert.equal(claims.email, steve.mail);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    assert.equal(userinfo.email_verified, true);
    assert.equal(
      userinfo.picture,
      `${PUBLIC_URL}/api/skin/head/${(await service.call('GET', '/api/home', { token: steve.token })).body.data.Uuid}`,
    );

    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    assert.notEqual(rotated.refresh_token, tokens.refresh_token);
    assert.equal((await join(rotated.access_token, steve.uuid, 'server-3')).status, 204);
    await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token!), invalidGrant);
    assert.equal((await join(rotated.access_token, steve.uuid, 'server-3')).status, 403, 'the reuse revoked the whole grant');
    await assert.rejects(oidc.refreshTokenGrant(config, rotated.refresh_token!), invalidGrant);
  });

  it("lists a player's grants and revokes one; log out everywhere ends them all", async () => {
    const steve = await player();
    const first = await browserLogin(steve.token);
    const second = await browserLogin(steve.token);
    const grants = (await service.call('GET', '/api/home/oauth/grants', { token: steve.token })).body.data;
    assert.equal(grants.length, 2);
    assert.deepEqual(grants[0].client, { id: clientId, name: 'Launchers', shared: true });
    assert.deepEqual(grants[0].profile, { id: steve.uuid, name: steve.username });
    assert.ok(grants[0].scopes.includes('Yggdrasil.Server.Join'));
    const sessions = (await service.call('GET', '/api/home/sessions', { token: steve.token })).body.data;
    assert.deepEqual(
      sessions.filter((session: { kind: string }) => session.kind !== 'web').map((session: { kind: string }) => session.kind),
      ['oauth', 'oauth'],
      'listed as kind oauth, not as game tokens',
    );
    const other = await player();
    assert.equal((await service.call('DELETE', `/api/home/oauth/grants/${grants[0].id}`, { token: other.token })).status, 404);
    assert.equal((await service.call('DELETE', `/api/home/oauth/grants/${grants[0].id}`, { token: steve.token })).status, 200);
    assert.equal((await join(first.access_token, steve.uuid, 'server-4')).status, 403);
    await assert.rejects(oidc.refreshTokenGrant(config, first.refresh_token!), invalidGrant);
    assert.equal((await join(second.access_token, steve.uuid, 'server-4')).status, 204);
    const audit = await service.db.selectFrom('audit_log').select('action').where('target_id', 'is not', null).execute();
    assert.ok(audit.some((entry) => entry.action === 'oauth.grant'));
    assert.ok(audit.some((entry) => entry.action === 'oauth.revoke'));

    assert.equal((await service.call('DELETE', '/api/home/sessions', { token: steve.token })).status, 200);
    assert.equal((await join(second.access_token, steve.uuid, 'server-4')).status, 403);
    await assert.rejects(oidc.refreshTokenGrant(config, second.refresh_token!), invalidGrant);
  });

  it("ends a player's grants with the game login's signout and a password change", async () => {
    const steve = await player();
    const first = await browserLogin(steve.token);
    const signout = await service.call('POST', `${API}/authserver/signout`, {
      body: { username: steve.mail, password: steve.password },
      ip: randomAddress(),
    });
    assert.equal(signout.status, 204);
    assert.equal((await join(first.access_token, steve.uuid, 'server-5')).status, 403);
    await assert.rejects(oidc.refreshTokenGrant(config, first.refresh_token!), invalidGrant);

    const second = await browserLogin(steve.token);
    const login = await service.call('POST', '/api/auth/login', {
      body: { username: steve.mail, password: steve.password },
      ip: randomAddress(),
    });
    const changed = await service.call('PATCH', '/api/home', {
      token: login.body.data.jwt,
      body: { current_password: steve.password, password: 'another good passphrase' },
    });
    assert.equal(changed.status, 200, changed.raw.toString());
    await assert.rejects(oidc.refreshTokenGrant(config, second.refresh_token!), invalidGrant);
  });

  it('refuses its tokens while YGGDRASIL_CONNECT=false, and takes them again once it is back on', async () => {
    const steve = await player();
    const tokens = await browserLogin(steve.token);
    service.settings.yggdrasilConnect = false;
    try {
      await service.restart();
      assert.equal((await service.call('GET', '/.well-known/openid-configuration')).status, 404);
      assert.equal((await service.call('GET', `${API}/`)).body.meta['feature.openid_configuration_url'], undefined);
      assert.equal((await service.call('POST', `${API}/authserver/validate`, { body: { accessToken: tokens.access_token } })).status, 403);
      assert.equal((await join(tokens.access_token, steve.uuid, 'server-6')).status, 403);
    } finally {
      service.settings.yggdrasilConnect = true;
      await service.restart();
    }
    assert.equal((await service.call('POST', `${API}/authserver/validate`, { body: { accessToken: tokens.access_token } })).status, 204);
    assert.equal((await join(tokens.access_token, steve.uuid, 'server-6')).status, 204);
  });

  it('takes at most 30 device and authorization requests per address (an IPv6 address by its /64) in 15 minutes', async () => {
    const rows = async () => (await service.db.selectFrom('oauth_models').select('id').execute()).length;
    const network = '2001:db8:77:1';
    for (let request = 1; request <= 30; request++) {
      const ip = `${network}::${request.toString(16)}`;
      if (request % 2 === 0) assert.equal((await deviceStart(DEVICE_SCOPE, ip)).status, 200, `device request ${request}`);
      else assert.equal((await beginAuthorization(new CookieJar(), DEVICE_SCOPE, ip)).opened.status, 303, `authorization ${request}`);
    }
    const before = await rows();
    const refused = await deviceStart(DEVICE_SCOPE, `${network}::ffff`);
    assert.equal(refused.status, 429, refused.raw.toString());
    assert.equal(refused.body.error, 'temporarily_unavailable');
    assert.match(refused.body.error_description, /Too many launcher logins begun from your address; try again in 15 minutes/);
    assert.ok(Number(refused.headers['retry-after']) > 800);
    assert.equal((await beginAuthorization(new CookieJar(), DEVICE_SCOPE, `${network}::fffe`)).opened.status, 429);
    assert.equal(await rows(), before, 'the refused requests stored nothing');
    assert.equal((await deviceStart(DEVICE_SCOPE, '2001:db8:77:2::1')).status, 200, 'another network is not held back');
  });

  it('ends a device code and an authorization request nobody finished after ten minutes; housekeeping removes them', async () => {
    const started = (await deviceStart()).body;
    const { uid } = await beginAuthorization(new CookieJar());
    const rowsOf = () =>
      service.db
        .selectFrom('oauth_models')
        .select(['model', 'payload', 'expires_at'])
        .where((eb) =>
          eb.or([eb('user_code', '=', userCodeKey(normalizedUserCode(started.user_code)!)), eb('id', '=', modelKey('Interaction', uid!))]),
        )
        .execute();
    const rows = await rowsOf();
    assert.deepEqual(rows.map((row) => row.model).sort(), ['DeviceCode', 'Interaction']);
    for (const row of rows) {
      const payload = JSON.parse(row.payload);
      assert.equal(payload.exp - payload.iat, 600, `${row.model} lives ten minutes`);
      assert.ok(row.expires_at! <= Date.now() + 600_000, `${row.model}'s row ends with it`);
    }
    const tenMinutesOn = new Housekeeping(service.db, { now: () => Date.now() + 601_000 }, pino({ level: 'silent' }));
    await tenMinutesOn.pass();
    assert.deepEqual(await rowsOf(), [], 'both rows are gone at the next pass');
    assert.equal((await poll(started.device_code)).body.error, 'invalid_grant');
  });

  /** The whole browser login of `launcherConfig`'s client for the player logged in with `token`. */
  const browserLogin = async (token: string) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const redirect = 'http://localhost:40000/cb';
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: 'openid offline_access profile email Yggdrasil.PlayerProfiles.Select Yggdrasil.Server.Join',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const browser = new CookieJar();
    const opened = await service.call('GET', url.pathname + url.search, { ip: randomAddress() });
    browser.take(opened.headers);
    const uid = new URL(String(opened.headers.location), PUBLIC_URL).searchParams.get('uid')!;
    const approved = await consent(token, { uid, approve: true }, browser);
    const back = await service.call('GET', new URL(approved.body.data.redirect, PUBLIC_URL).pathname, { headers: browser.header() });
    return oidc.authorizationCodeGrant(config, new URL(String(back.headers.location)), { pkceCodeVerifier: verifier });
  };
});
