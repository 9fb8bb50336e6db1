// Logging in with an OpenID Connect provider and linking one (contract section 26), against a real OpenID Provider
// in-process (oidc-provider, test/support/openid-provider.ts) with its own keys. The test plays the browser: it follows
// the redirects itself and keeps the cookies the service sets (the flow is bound to the browser that began it).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { freePort } from '../../test/support/net.ts';
import {
  oidcPerson,
  standInProvider,
  startOpenIdStandIn,
  throughProvider,
  type OidcPerson,
  type OpenIdStandIn,
} from '../../test/support/openid-provider.ts';
import { codeIn, mailTo } from '../../test/support/smtp.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, type CallOptions, type TestService } from '../../test/support/service.ts';
import { LEVELS } from '../shared/levels.ts';
import { DISCOVERY_RETRY_MS } from './client.ts';

const ID = 'community';
const CALLBACK = `${PUBLIC_URL}/api/auth/oidc/${ID}/callback`;

type Browser = Map<string, { value: string; path: string }>;

/** The browser's side of the flow against `service`. */
function browserOf(service: () => TestService) {
  const fromBrowser = async (browser: Browser, method: string, path: string, options: CallOptions = {}) => {
    const cookie = [...browser]
      .filter(([, stored]) => path.startsWith(stored.path))
      .map(([name, stored]) => `${name}=${stored.value}`)
      .join('; ');
    const reply = await service().call(method, path, { ...options, headers: cookie ? { cookie } : {} });
    for (const header of [reply.headers['set-cookie'] ?? []].flat()) {
      const [pair, ...attributes] = String(header).split(';');
      const [name, value] = pair!.trim().split('=') as [string, string];
      const cookiePath =
        attributes
          .find((attribute) => /^\s*path=/i.test(attribute))
          ?.split('=')[1]
          ?.trim() ?? '/';
      if (attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))) browser.delete(name);
      else browser.set(name, { value, path: cookiePath });
    }
    return reply;
  };
  const callback = async (path: string, browser: Browser) => {
    const reply = await fromBrowser(browser, 'GET', path);
    assert.equal(reply.status, 302, JSON.stringify(reply.body));
    return String(reply.headers.location);
  };
  const beginLogin = async (browser: Browser) => {
    const begun = await fromBrowser(browser, 'GET', `/api/auth/oidc/${ID}`, { ip: randomAddress() });
    assert.equal(begun.status, 302, JSON.stringify(begun.body));
    return String(begun.headers.location);
  };
  return { fromBrowser, callback, beginLogin };
}

describeEachDatabase('OpenID Connect login and link', (kind) => {
  const clock = new ManualClock();
  let standIn: OpenIdStandIn;
  let service: TestService;
  let ownerToken: string;
  const { fromBrowser, callback, beginLogin } = browserOf(() => service);
  before(async () => {
    standIn = await startOpenIdStandIn(CALLBACK);
    service = await startService(kind, {
      clock,
      settings: {
        owner: OWNER,
        oidcProviders: [standInProvider(standIn, ID, false)],
      },
    });
    ownerToken = await service.ownerToken();
  });
  after(async () => {
    await service?.close();
    await standIn?.close();
  });

  type Player = { token: string; password: string };
  const link = async (player: Player, person: OidcPerson, browser: Browser = new Map()) => {
    const begun = await fromBrowser(browser, 'POST', `/api/home/oidc/${ID}`, {
      token: player.token,
      body: { password: player.password },
      ip: randomAddress(),
    });
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    standIn.signIn(person);
    return callback(await throughProvider(begun.body.url as string, CALLBACK), browser);
  };
  const loginAs = async (person: OidcPerson, browser: Browser) => {
    standIn.signIn(person);
    return callback(await throughProvider(await beginLogin(browser), CALLBACK), browser);
  };
  const pageOf = (location: string) => {
    const url = new URL(location);
    return { path: `${url.origin}${url.pathname}`, code: url.searchParams.get('code'), problem: url.searchParams.get('problem') };
  };
  const exchange = (code: string, browser: Browser) =>
    fromBrowser(browser, 'POST', '/api/auth/oidc/exchange', { body: { code }, ip: randomAddress() });
  const home = async (token: string) => (await service.call('GET', '/api/home', { token })).body.data;

  it('lists the provider for the pages, links from the profile with the password, and logs in with the linked identity', async () => {
    const listed = await service.call('GET', '/api/auth/oidc');
    assert.deepEqual(listed.body.data.providers, [{ id: ID, name: 'Craft community', register: false }]);

    const player = await service.registerPlayer();
    const wrong = await service.call('POST', `/api/home/oidc/${ID}`, {
      token: player.token,
      body: { password: 'not it' },
      ip: randomAddress(),
    });
    assert.equal(wrong.status, 401);

    const person = oidcPerson({ preferred_username: 'blockfan' });
    const browser: Browser = new Map();
    const begun = await fromBrowser(browser, 'POST', `/api/home/oidc/${ID}`, {
      token: player.token,
      body: { password: player.password },
      ip: randomAddress(),
    });
    const authorize = new URL(begun.body.url as string);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authorize.searchParams.get('nonce'));
    assert.ok(authorize.searchParams.get('state'));
    assert.equal(authorize.searchParams.get('redirect_uri'), CALLBACK);
    standIn.signIn(person);
    assert.equal(await callback(await throughProvider(authorize.href, CALLBACK), browser), `${PUBLIC_URL}/home`);
    const detail = await home(player.token);
    assert.equal(detail.Identities.length, 1);
    assert.equal(detail.Identities[0].provider, ID);
    assert.equal(detail.Identities[0].name, 'blockfan');
    assert.equal(detail.Identities[0].subject_hint, `…${person.sub.slice(-4)}`);

    const loginBrowser: Browser = new Map();
    const page = pageOf(await loginAs(person, loginBrowser));
    assert.equal(page.path, `${PUBLIC_URL}/oidc`);
    // The code works in the browser that began, once.
    assert.equal((await exchange(page.code!, new Map())).status, 401);
    const session = await exchange(page.code!, loginBrowser);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal((await home(session.body.data.jwt as string)).Username, detail.Username);
    assert.equal((await exchange(page.code!, loginBrowser)).status, 401);
    const audit = await service.call(
      'GET',
      `/api/admin/audit?for=${(await service.db.selectFrom('users').select('id').where('username', '=', detail.Username).executeTakeFirstOrThrow()).id}&action=auth.login`,
      { token: ownerToken },
    );
    assert.equal(audit.body.data[0].details.provider, ID);
  });

  it('sends an identity linked to nobody back to the login page, and creates nothing', async () => {
    const before = await service.db.selectFrom('users').select('id').execute();
    assert.equal(await loginAs(oidcPerson(), new Map()), `${PUBLIC_URL}/login?oidc=not-linked`);
    assert.equal((await service.db.selectFrom('users').select('id').execute()).length, before.length);
  });

  it('refuses a forged state and a replayed one, and a callback in another browser', async () => {
    const person = oidcPerson();
    await link(await service.registerPlayer(), person);
    const browser: Browser = new Map();
    standIn.signIn(person);
    const back = await throughProvider(await beginLogin(browser), CALLBACK);
    const forged = back.replace(/state=[^&]+/, 'state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    assert.equal(pageOf(await callback(forged, browser)).problem, 'state');
    assert.equal(pageOf(await callback(back, new Map())).problem, 'browser');
    assert.equal(pageOf(await callback(back, browser)).path, `${PUBLIC_URL}/oidc`);
    assert.equal(pageOf(await callback(back, browser)).problem, 'state');
  });

  it('refuses an ID token for another nonce, and one signed by another key', async () => {
    const person = oidcPerson();
    const player = await service.registerPlayer();
    await link(player, person);
    // The authorization asked with another nonce (a code injected from another request): the ID token does not match.
    const browser: Browser = new Map();
    standIn.signIn(person);
    const authorize = new URL(await beginLogin(browser));
    authorize.searchParams.set('nonce', 'another-nonce-than-the-service-made');
    assert.equal(pageOf(await callback(await throughProvider(authorize.href, CALLBACK), browser)).problem, 'untrusted');

    standIn.forgeIdToken = true;
    try {
      assert.equal(pageOf(await loginAs(person, new Map())).problem, 'untrusted');
    } finally {
      standIn.forgeIdToken = false;
    }
  });

  it('unlinks with the password; the identity then logs in nobody', async () => {
    const person = oidcPerson();
    const player = await service.registerPlayer();
    await link(player, person);
    const wrong = await service.call('DELETE', `/api/home/oidc/${ID}`, {
      token: player.token,
      body: { password: 'nope' },
      ip: randomAddress(),
    });
    assert.equal(wrong.status, 401);
    assert.equal((await home(player.token)).Identities.length, 1);
    const done = await service.call('DELETE', `/api/home/oidc/${ID}`, {
      token: player.token,
      body: { password: player.password },
      ip: randomAddress(),
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual((await home(player.token)).Identities, []);
    assert.equal(await loginAs(person, new Map()), `${PUBLIC_URL}/login?oidc=not-linked`);
  });

  it('keeps one account per identity', async () => {
    const person = oidcPerson();
    await link(await service.registerPlayer(), person);
    const other = await service.registerPlayer();
    assert.equal(pageOf(await link(other, person)).problem, 'taken');
    assert.deepEqual((await home(other.token)).Identities, []);
  });
});

describeEachDatabase('An OpenID Connect provider down at the start', (kind) => {
  const clock = new ManualClock();
  let standIn: OpenIdStandIn | undefined;
  let service: TestService;
  let port: number;
  const { fromBrowser } = browserOf(() => service);
  before(async () => {
    port = await freePort();
    service = await startService(kind, {
      clock,
      settings: {
        oidcProviders: [
          {
            id: ID,
            issuer: `http://127.0.0.1:${port}`,
            clientId: 'skins',
            clientSecret: 'stand-in-secret-of-the-skin-service',
            name: 'Late',
            scopes: 'openid',
            register: false,
          },
        ],
      },
    });
  });
  after(async () => {
    await service?.close();
    await standIn?.close();
  });

  it('hides its button and says so at a login while down, then works once it answers', async () => {
    assert.deepEqual((await service.call('GET', '/api/auth/oidc')).body.data.providers, []);
    const refused = await fromBrowser(new Map(), 'GET', `/api/auth/oidc/${ID}`, { ip: randomAddress() });
    assert.equal(refused.status, 302);
    assert.equal(refused.headers.location, `${PUBLIC_URL}/oidc?problem=unavailable`);

    standIn = await startOpenIdStandIn(CALLBACK, port);
    clock.advance(DISCOVERY_RETRY_MS);
    const begun = await fromBrowser(new Map(), 'GET', `/api/auth/oidc/${ID}`, { ip: randomAddress() });
    assert.equal(begun.status, 302);
    assert.ok(String(begun.headers.location).startsWith(`${standIn.issuer}/`), String(begun.headers.location));
    assert.deepEqual((await service.call('GET', '/api/auth/oidc')).body.data.providers, [{ id: ID, name: 'Late', register: false }]);
  });
});

describeEachDatabase('Registration through an OpenID Connect provider', (kind) => {
  const clock = new ManualClock();
  let standIn: OpenIdStandIn;
  let service: TestService;
  let ownerToken: string;
  const { fromBrowser, callback } = browserOf(() => service);
  before(async () => {
    standIn = await startOpenIdStandIn(CALLBACK);
    service = await startService(kind, {
      clock,
      settings: {
        owner: OWNER,
        oidcProviders: [standInProvider(standIn, ID, true)],
      },
    });
    ownerToken = await service.ownerToken();
  });
  after(async () => {
    await service?.close();
    await standIn?.close();
  });

  /** Through the provider's registration button as `person`: where the callback sent the browser. */
  const registerAs = async (person: OidcPerson, browser: Browser) => {
    const begun = await fromBrowser(browser, 'GET', `/api/auth/oidc/${ID}/register`, { ip: randomAddress() });
    assert.equal(begun.status, 302, JSON.stringify(begun.body));
    standIn.signIn(person);
    return new URL(await callback(await throughProvider(String(begun.headers.location), CALLBACK), browser));
  };
  const users = async () => (await service.db.selectFrom('users').select('id').execute()).length;
  const submit = (browser: Browser, body: object) => fromBrowser(browser, 'POST', '/api/auth/oidc/register', { body, ip: randomAddress() });
  const home = async (token: string) => (await service.call('GET', '/api/home', { token })).body.data;

  it('lists the provider as one that registers', async () => {
    assert.deepEqual((await service.call('GET', '/api/auth/oidc')).body.data.providers, [
      { id: ID, name: 'Craft community', register: true },
    ]);
  });

  it('registers with a verified mail without a mail code: the player picks the name, is logged in, and logs in through the provider again', async () => {
    const person = oidcPerson({ preferred_username: 'Block.Fan' });
    const browser: Browser = new Map();
    const before = await users();
    const page = await registerAs(person, browser);
    assert.equal(`${page.origin}${page.pathname}`, `${PUBLIC_URL}/register/oidc`);
    const ticket = page.searchParams.get('ticket')!;
    // Nothing exists before the player picks the name.
    assert.equal(await users(), before);
    // The ticket works only in the browser that began.
    assert.equal(
      (await fromBrowser(new Map(), 'POST', '/api/auth/oidc/registration', { body: { ticket }, ip: randomAddress() })).status,
      401,
    );
    const details = await fromBrowser(browser, 'POST', '/api/auth/oidc/registration', { body: { ticket }, ip: randomAddress() });
    assert.equal(details.status, 200, JSON.stringify(details.body));
    assert.deepEqual(details.body.data, {
      provider: 'Craft community',
      mail: person.email,
      mail_verified: true,
      suggested_name: 'BlockFan',
    });

    // A name someone has is refused on its field, and the ticket stays usable.
    const taken = await service.registerPlayer();
    const refused = await submit(browser, { ticket, username: taken.username });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(await users(), before + 1);

    const username = `oidc_${Math.random().toString(36).slice(2, 8)}`;
    const done = await submit(browser, { ticket, username });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.data.mailed, false);
    assert.equal(done.body.url, `${PUBLIC_URL}/home`);
    const detail = await home(done.body.data.jwt as string);
    assert.equal(detail.Username, username);
    assert.equal(detail.Identities.length, 1);
    assert.equal(detail.Identities[0].name, 'Block.Fan');
    // No code was mailed.
    assert.equal(service.mailbox.messages.filter(mailTo(person.email)).length, 0);
    // Used up.
    assert.equal((await submit(browser, { ticket, username: `${username}x` })).status, 401);

    // The provider logs this account in from then on, with the login button or the registration button alike.
    const again: Browser = new Map();
    const login = await registerAs(person, again);
    assert.equal(`${login.origin}${login.pathname}`, `${PUBLIC_URL}/oidc`);
    const session = await fromBrowser(again, 'POST', '/api/auth/oidc/exchange', {
      body: { code: login.searchParams.get('code') },
      ip: randomAddress(),
    });
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal((await home(session.body.data.jwt as string)).Username, username);
  });

  it('mails a code for an unverified mail: the account logs in through the provider once it is confirmed', async () => {
    const person = oidcPerson({ email_verified: false });
    const browser: Browser = new Map();
    const ticket = (await registerAs(person, browser)).searchParams.get('ticket')!;
    const details = await fromBrowser(browser, 'POST', '/api/auth/oidc/registration', { body: { ticket }, ip: randomAddress() });
    assert.equal(details.body.data.mail_verified, false);
    const username = `oidc_${Math.random().toString(36).slice(2, 8)}`;
    const done = await submit(browser, { ticket, username });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body.data, { mailed: true, mail: person.email });
    assert.equal(done.body.url, `${PUBLIC_URL}/mail/confirm`);
    const mail = await service.mailbox.waitFor(mailTo(person.email));

    // Not confirmed yet: the provider's login is refused as a password login would be.
    const early: Browser = new Map();
    const login = await registerAs(person, early);
    const refused = await fromBrowser(early, 'POST', '/api/auth/oidc/exchange', {
      body: { code: login.searchParams.get('code') },
      ip: randomAddress(),
    });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));

    assert.match(mail.text ?? '', /\/mail\/confirm\?code=/);
    const confirmed = await service.call('POST', '/api/auth/confirm', { body: { code: codeIn(mail) }, ip: randomAddress() });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const later: Browser = new Map();
    const code = (await registerAs(person, later)).searchParams.get('code');
    const session = await fromBrowser(later, 'POST', '/api/auth/oidc/exchange', { body: { code }, ip: randomAddress() });
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal((await home(session.body.data.jwt as string)).Username, username);
  });

  it('never takes over an address an account here has: the page says to log in and link, and nothing is created', async () => {
    const player = await service.registerPlayer();
    const before = await users();
    const page = await registerAs(oidcPerson({ email: player.mail.toUpperCase() }), new Map());
    assert.equal(page.href, `${PUBLIC_URL}/register?oidc=mail-taken`);
    assert.equal(await users(), before);

    // Taken between the callback and the name: a 409, nothing created.
    const person = oidcPerson();
    const browser: Browser = new Map();
    const ticket = (await registerAs(person, browser)).searchParams.get('ticket')!;
    await service.registerPlayer({ mail: person.email });
    const refused = await submit(browser, { ticket, username: `oidc_${Math.random().toString(36).slice(2, 8)}` });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(await users(), before + 1);
  });

  it('keeps registration closed when the console closed it, and takes an invitation when it asks for one', async () => {
    const closed = await service.call('PUT', '/api/admin/registration', { token: ownerToken, body: { mode: 'closed' } });
    assert.equal(closed.status, 200);
    try {
      const begun = await fromBrowser(new Map(), 'GET', `/api/auth/oidc/${ID}/register`, { ip: randomAddress() });
      assert.equal(begun.headers.location, `${PUBLIC_URL}/register?oidc=closed`);
      await service.call('PUT', '/api/admin/registration', { token: ownerToken, body: { mode: 'invite' } });
      const browser: Browser = new Map();
      const ticket = (await registerAs(oidcPerson(), browser)).searchParams.get('ticket')!;
      const username = `oidc_${Math.random().toString(36).slice(2, 8)}`;
      assert.equal((await submit(browser, { ticket, username })).status, 403);
      const invite = await service.call('POST', '/api/admin/invites', { token: ownerToken, body: {} });
      const code = new URL(invite.body.data.link as string).searchParams.get('invite');
      const done = await submit(browser, { ticket, username, invite: code });
      assert.equal(done.status, 200, JSON.stringify(done.body));
    } finally {
      await service.call('PUT', '/api/admin/registration', { token: ownerToken, body: { mode: null } });
    }
  });

  /** A new password-less account, registered through the provider without a password: the person, its name and session. */
  const passwordLess = async () => {
    const person = oidcPerson();
    const browser: Browser = new Map();
    const ticket = (await registerAs(person, browser)).searchParams.get('ticket')!;
    const username = `oidc_${Math.random().toString(36).slice(2, 8)}`;
    const token = (await submit(browser, { ticket, username })).body.data.jwt as string;
    return { person, username, token };
  };

  it("lets an admin above the player unlink the player's identity, saying so before the last way in goes", async () => {
    const { username, token } = await passwordLess();
    const path = `/api/admin/user/${username}/oidc/${ID}`;
    // A player may not; an admin only for players below their own level.
    const other = await service.registerPlayer();
    assert.equal((await service.call('DELETE', path, { token: other.token })).status, 403);
    const admin = await service.registerPlayer();
    await service.db.updateTable('users').set({ perms: LEVELS.admin }).where('username', '=', admin.username).execute();
    const aboveAdmin = await service.call('DELETE', `/api/admin/user/${OWNER.username}/oidc/${ID}`, { token: admin.token });
    assert.equal(aboveAdmin.status, 403, JSON.stringify(aboveAdmin.body));
    assert.match(aboveAdmin.body.msg as string, /below your own level/);

    // The identity is this password-less account's only way in: refused until the admin says they know.
    const last = await service.call('DELETE', path, { token: admin.token, body: {} });
    assert.equal(last.status, 409, JSON.stringify(last.body));
    assert.equal(last.body.data.last_way, true);
    assert.match(last.body.msg as string, /last way to log in/);
    assert.equal((await home(token)).Identities.length, 1, 'nothing unlinked');
    const unlinked = await service.call('DELETE', path, { token: admin.token, body: { last: true } });
    assert.equal(unlinked.status, 200, JSON.stringify(unlinked.body));
    assert.deepEqual((await home(token)).Identities, []);
    const { id } = await service.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    const audited = await service.db
      .selectFrom('audit_log')
      .select(['iss', 'details'])
      .where('action', '=', 'oidc.unlink')
      .where('target_id', '=', id)
      .execute();
    assert.equal(audited.length, 1);
    assert.equal(audited[0]!.iss, admin.username);
    assert.equal(JSON.parse(String(audited[0]!.details)).by, 'admin');
    assert.equal((await service.call('DELETE', path, { token: admin.token, body: { last: true } })).status, 404);
    assert.equal((await service.call('DELETE', `/api/admin/user/${username}/oidc/Bad_Id`, { token: admin.token })).status, 400);
  });

  it('lets a password-less account in by the provider, refuses what asks for a password until the reset sets one', async () => {
    const { person, username, token } = await passwordLess();
    const ip = randomAddress();
    // Nothing verifies against no password.
    assert.equal((await service.call('POST', '/api/auth/login', { body: { username, password: '' }, ip })).status, 401);
    assert.equal((await service.call('POST', '/api/auth/login', { body: { username, password: 'anything at all' }, ip })).status, 401);
    const asks: [string, string, object][] = [
      ['DELETE', `/api/home/oidc/${ID}`, { password: 'anything at all' }],
      ['DELETE', '/api/home', { password: 'anything at all' }],
      ['POST', '/api/home/passkeys/options', { password: 'anything at all' }],
      ['PATCH', '/api/home', { mail: 'another@example.org', current_password: 'anything at all' }],
      ['PATCH', '/api/home', { password: 'a new password here', current_password: 'anything at all' }],
      ['POST', '/api/home/app-passwords', { name: 'Launcher', password: 'anything at all' }],
      ['POST', '/api/home/2fa', { password: 'anything at all' }],
    ];
    for (const [method, path, body] of asks) {
      const reply = await service.call(method, path, { token, body, ip: randomAddress() });
      assert.equal(reply.status, 403, `${method} ${path}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.data.password_unset, true, `${method} ${path}`);
      assert.match(reply.body.msg as string, /Forgot your password/);
    }
    assert.equal((await home(token)).Identities.length, 1);
    // The profile knows: the pages offer to set a password rather than ask for it.
    assert.equal((await home(token)).HasPassword, false);

    // The reset sets one; from then on the password works and is asked as for anyone.
    assert.equal((await service.call('POST', '/api/auth/forgetpass', { body: { mail: person.email }, ip })).status, 200);
    const code = codeIn(await service.mailbox.waitFor(mailTo(person.email)));
    const reset = await service.call('POST', '/api/auth/forgetpass/update', { body: { code, password: 'my brand new password' }, ip });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const login = await service.call('POST', '/api/auth/login', { body: { username, password: 'my brand new password' }, ip });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal((await home(login.body.data.jwt as string)).HasPassword, true);
  });
});
