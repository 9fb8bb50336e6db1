// The Discord link and login (contract section 11) against an in-process stand-in of Discord's authorize, token and
// user endpoints (test/support/discord.ts). The test plays the browser: it follows the redirects itself and keeps the
// cookies the service sets, as a browser would (contract section 15 binds the flow to the browser that began it).
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { discordUser, startDiscordStandIn, type DiscordStandIn, type StandInUser } from '../../test/support/discord.ts';
import { OWNER, PUBLIC_URL, randomAddress, startService, type CallOptions, type TestService } from '../../test/support/service.ts';
import { mailTo } from '../../test/support/smtp.ts';

const CALLBACK = `${PUBLIC_URL}/api/auth/discord/callback`;

describeEachDatabase('Discord link and login', (kind) => {
  const clock = new ManualClock();
  let standIn: DiscordStandIn;
  let service: TestService;
  let ownerToken: string;
  before(async () => {
    standIn = await startDiscordStandIn(CALLBACK);
    service = await startService(kind, {
      clock,
      settings: { owner: OWNER, discord: { clientId: standIn.clientId, clientSecret: standIn.clientSecret, url: standIn.url } },
    });
    ownerToken = await service.ownerToken();
  });
  after(async () => {
    await service?.close();
    await standIn?.close();
  });

  /** The browser at Discord: opens the authorize address and answers where Discord sends it back (a callback path). */
  const atDiscord = async (authorizeUrl: string) => {
    assert.ok(authorizeUrl.startsWith(`${standIn.url}/oauth2/authorize?`), authorizeUrl);
    const response = await fetch(authorizeUrl, { redirect: 'manual' });
    assert.equal(response.status, 302, await response.text());
    const back = new URL(response.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
    return back.pathname + back.search;
  };
  /** A browser's cookie jar: name to value and path; a cookie goes only to paths under its own. */
  type Browser = Map<string, { value: string; path: string }>;
  /** The browser the tests use unless they need a second one (another person's, or a fresh one). */
  const usual: Browser = new Map();
  /** A request from `browser`: sends its cookies for the path, keeps what the answer sets or clears. */
  const fromBrowser = async (browser: Browser, method: string, path: string, options: CallOptions = {}) => {
    const cookie = [...browser]
      .filter(([, stored]) => path.startsWith(stored.path))
      .map(([name, stored]) => `${name}=${stored.value}`)
      .join('; ');
    const reply = await service.call(method, path, { ...options, headers: cookie ? { cookie } : {} });
    for (const header of [reply.headers['set-cookie'] ?? []].flat()) {
      const [pair, ...attributes] = String(header).split(';');
      const [name, value] = pair!.trim().split('=') as [string, string];
      const path =
        attributes
          .find((attribute) => /^\s*path=/i.test(attribute))
          ?.split('=')[1]
          ?.trim() ?? '/';
      if (attributes.some((attribute) => /^\s*max-age=0$/i.test(attribute))) browser.delete(name);
      else browser.set(name, { value, path });
    }
    return reply;
  };
  /** The callback on the service: where it sends the browser next. */
  const callback = async (path: string, browser = usual) => {
    const reply = await fromBrowser(browser, 'GET', path);
    assert.equal(reply.status, 302, JSON.stringify(reply.body));
    return String(reply.headers.location);
  };
  type Player = { token: string; password: string };
  /** Begins a link with the player's password (and `totp` when they have two-factor login on). */
  const beginLink = async (player: Player, browser = usual, totp?: string) => {
    const begun = await fromBrowser(browser, 'POST', '/api/home/discord', {
      token: player.token,
      body: totp === undefined ? { password: player.password } : { password: player.password, totp },
      ip: randomAddress(),
    });
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
    return begun.body.url as string;
  };
  const link = async (player: Player, user: StandInUser, browser = usual, totp?: string) => {
    standIn.signIn(user);
    return callback(await atDiscord(await beginLink(player, browser, totp)), browser);
  };
  const beginLogin = async (browser = usual) => {
    const begun = await fromBrowser(browser, 'GET', '/api/auth/discord', { ip: randomAddress() });
    assert.equal(begun.status, 302);
    return String(begun.headers.location);
  };
  /** A Discord login up to the page the service sends the browser to. */
  const loginAs = async (user: StandInUser, browser = usual) => {
    standIn.signIn(user);
    return callback(await atDiscord(await beginLogin(browser)), browser);
  };
  const codeOf = (location: string) => {
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}`, `${PUBLIC_URL}/discord`, location);
    return url.searchParams.get('code')!;
  };
  const exchange = (code: string, totp?: string, browser = usual, ip = randomAddress()) =>
    fromBrowser(browser, 'POST', '/api/auth/discord/exchange', { body: totp === undefined ? { code } : { code, totp }, ip });
  const home = async (token: string) => (await service.call('GET', '/api/home', { token })).body.data;
  const userRow = (username: string) =>
    service.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
  const auditOf = async (userId: number, action: string) =>
    (await service.call('GET', `/api/admin/audit?for=${userId}&action=${action}`, { token: ownerToken })).body.data as {
      iss: string;
      details: Record<string, unknown>;
    }[];
  /** A player with two-factor login on, and the code of the current step (the step after the one that turned it on). */
  const playerWithTwoFactor = async () => {
    const player = await service.registerPlayer();
    const setup = await service.call('POST', '/api/home/2fa', { token: player.token, body: { password: player.password } });
    const secret = Secret.fromBase32(setup.body.data.secret as string);
    const totpNow = () => TOTP.generate({ secret, algorithm: 'SHA1', digits: 6, period: 30, timestamp: clock.now() });
    assert.equal((await service.call('POST', '/api/home/2fa/confirm', { token: player.token, body: { code: totpNow() } })).status, 200);
    clock.advance(30_000);
    /** A code the account does not take now: none of the three steps accepted around the clock. */
    const wrongCode = () => {
      const near = new Set([-1, 0, 1].map((steps) => TOTP.generate({ secret, period: 30, timestamp: clock.now() + steps * 30_000 })));
      return ['000000', '111111', '222222', '333333'].find((candidate) => !near.has(candidate))!;
    };
    return { player, totpNow, wrongCode };
  };
  const problemOf = (location: string) => {
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}`, `${PUBLIC_URL}/discord`, location);
    return url.searchParams.get('problem');
  };

  it('links from the profile: Discord is asked with state, PKCE and scope identify, and the account shows the link', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser({ username: 'blockfan' });
    standIn.signIn(discord);
    const authorize = new URL(await beginLink(player));
    assert.equal(authorize.searchParams.get('response_type'), 'code');
    assert.equal(authorize.searchParams.get('client_id'), standIn.clientId);
    assert.equal(authorize.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(authorize.searchParams.get('scope'), 'identify');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorize.searchParams.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    // The state is kept hashed: the database does not hold it.
    const stored = await service.db.selectFrom('discord_states').select('state_hash').execute();
    assert.ok(stored.every((row) => row.state_hash !== authorize.searchParams.get('state')));

    assert.equal(await callback(await atDiscord(authorize.href)), `${PUBLIC_URL}/home`);
    const token = standIn.tokenRequests.at(-1)!;
    assert.equal(token.contentType, 'application/x-www-form-urlencoded');
    assert.equal(token.basicAuth, true);
    assert.equal(token.fields.grant_type, 'authorization_code');
    assert.equal(token.fields.redirect_uri, CALLBACK);
    assert.ok(token.fields.code_verifier, 'the PKCE verifier goes with the code');
    assert.equal(token.fields.client_secret, undefined, 'the secret travels only in the Authorization header');

    const detail = await home(player.token);
    assert.equal(detail.Discord_integration, true);
    assert.deepEqual(detail.Discord, {
      userid: discord.id,
      username: 'blockfan',
      avatar: `https://cdn.discordapp.com/avatars/${discord.id}/${discord.avatar}.png`,
    });
    const asAdmin = await service.call('GET', `/api/admin/user/${player.username}`, { token: ownerToken });
    assert.deepEqual(asAdmin.body.data.Discord, detail.Discord);
    const listed = await service.call('GET', `/api/admin/users?search=${player.username}`, { token: ownerToken });
    assert.equal(listed.body.data[0].dsid, discord.id);
    assert.deepEqual(listed.body.data[0].discord, { username: 'blockfan', avatar: detail.Discord.avatar });

    const { id } = await userRow(player.username);
    const entries = await auditOf(id, 'discord.link');
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.iss, player.username);
    assert.deepEqual(entries[0]!.details, { discord_id: discord.id, discord_username: 'blockfan' });
  });

  it('gives an account without a Discord avatar an empty avatar', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser({ avatar: null });
    assert.equal(await link(player, discord), `${PUBLIC_URL}/home`);
    assert.deepEqual((await home(player.token)).Discord, { userid: discord.id, username: discord.username, avatar: '' });
  });

  it('unlinks from the profile (audited), and once unlinked there is nothing to unlink', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser();
    await link(player, discord);
    const unlinked = await service.call('DELETE', '/api/home/discord', { token: player.token });
    assert.equal(unlinked.status, 200);
    const detail = await home(player.token);
    assert.equal(detail.Discord_integration, false);
    assert.deepEqual(detail.Discord, { userid: '', username: '', avatar: '' });
    const { id } = await userRow(player.username);
    const entries = await auditOf(id, 'discord.unlink');
    assert.equal(entries.length, 1);
    assert.deepEqual(entries[0]!.details, { discord_id: discord.id });
    const again = await service.call('DELETE', '/api/home/discord', { token: player.token });
    assert.equal(again.status, 404);
    assert.match(again.body.msg, /No Discord account is linked/);
    // The Discord account is free again: the login no longer finds the player.
    assert.equal(await loginAs(discord), `${PUBLIC_URL}/login?discord=not-linked`);
  });

  it('is unlinked by an admin with dsid: false (audited), after which the player may link it again', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser();
    await link(player, discord);
    const patched = await service.call('PATCH', `/api/admin/user/${player.username}`, { token: ownerToken, body: { dsid: false } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.data.Discord_integration, false);
    const { id } = await userRow(player.username);
    const entries = await auditOf(id, 'user.update');
    assert.equal(entries[0]!.iss, OWNER.username);
    assert.equal(entries[0]!.details.dsid, false);
    assert.equal(await link(player, discord), `${PUBLIC_URL}/home`);
    assert.equal((await home(player.token)).Discord.userid, discord.id);
  });

  it('links one Discord account to one account only: a second account is refused and nothing changes', async () => {
    const first = await service.registerPlayer();
    const second = await service.registerPlayer();
    const discord = discordUser();
    await link(first, discord);
    assert.equal(problemOf(await link(second, discord)), 'taken');
    assert.equal((await home(second.token)).Discord_integration, false);
    assert.equal((await home(first.token)).Discord.userid, discord.id);
    const { id } = await userRow(second.username);
    assert.deepEqual(await auditOf(id, 'discord.link'), []);
  });

  it('logs a linked account in through a one-time code, never a token in the address', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser();
    await link(player, discord);
    const begun = new URL(await beginLogin());
    assert.equal(begun.searchParams.get('redirect_uri'), CALLBACK);
    standIn.signIn(discord);
    const landing = await callback(await atDiscord(begun.href));
    assert.doesNotMatch(landing, /eyJ/, 'no JWT in the address');
    const code = codeOf(landing);
    const stored = await service.db.selectFrom('discord_login_codes').select('code_hash').execute();
    assert.ok(
      stored.every((row) => row.code_hash !== code),
      'the code is kept hashed',
    );

    const exchanged = await exchange(code);
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    assert.equal(exchanged.body.url, `${PUBLIC_URL}/home`);
    const detail = await home(exchanged.body.data.jwt);
    assert.equal(detail.Username, player.username);
    // The session is a web session of the account like a password login's.
    const sessions = await service.call('GET', '/api/home/sessions', { token: exchanged.body.data.jwt });
    assert.equal(sessions.body.data.filter((session: { kind: string }) => session.kind === 'web').length, 2);

    const replayed = await exchange(code);
    assert.equal(replayed.status, 401);
    assert.match(replayed.body.msg, /expired, was already used/);
  });

  it('lets a one-time code expire after 2 minutes', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser();
    await link(player, discord);
    const code = codeOf(await loginAs(discord));
    clock.advance(2 * 60_000 + 1);
    const late = await exchange(code);
    assert.equal(late.status, 401);
    assert.match(late.body.msg, /expired, was already used/);
  });

  it('sends an unlinked Discord account to the login page, which says so, and creates nothing', async () => {
    const count = async () =>
      Number(
        (
          await service.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    assert.equal(await loginAs(discordUser()), `${PUBLIC_URL}/login?discord=not-linked`);
    assert.equal(await count(), before);
  });

  it('applies the rules of a password login: a banned or unconfirmed account gets no session', async () => {
    const banned = await service.registerPlayer();
    const bannedDiscord = discordUser();
    await link(banned, bannedDiscord);
    await service.call('PATCH', `/api/admin/user/${banned.username}`, { token: ownerToken, body: { perms: -1 } });
    const bannedCode = codeOf(await loginAs(bannedDiscord));
    const refused = await exchange(bannedCode);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.msg, 'This account is banned. Reason: Another reason, given by the administrators. The ban is permanent.');
    assert.equal((await exchange(bannedCode)).status, 401, 'a refusal uses the code up');

    const unconfirmed = await service.registerPlayer();
    const unconfirmedDiscord = discordUser();
    await link(unconfirmed, unconfirmedDiscord);
    await service.db.updateTable('users').set({ mail_verify: 0 }).where('username', '=', unconfirmed.username).execute();
    const answer = await exchange(codeOf(await loginAs(unconfirmedDiscord)));
    assert.equal(answer.status, 403);
    assert.match(answer.body.msg, /Confirm your mail address/);
  });

  it('asks for the second factor of an account with two-factor login, keeping the code usable until one is sent', async () => {
    const { player, totpNow, wrongCode } = await playerWithTwoFactor();
    const discord = discordUser();
    await link(player, discord, usual, totpNow());
    clock.advance(30_000);

    const code = codeOf(await loginAs(discord));
    const asked = await exchange(code);
    assert.equal(asked.status, 401);
    assert.deepEqual(asked.body.data, { totp_required: true });
    const again = await exchange(code);
    assert.equal(again.body.data.totp_required, true, 'a refusal for the missing code does not use the code up');
    const done = await exchange(code, totpNow());
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await home(done.body.data.jwt)).Username, player.username);

    // A wrong authenticator code uses the Discord login up and counts as a failed login.
    clock.advance(30_000);
    const next = codeOf(await loginAs(discord));
    const wrong = wrongCode();
    const refused = await exchange(next, wrong);
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body.data, {});
    assert.equal((await exchange(next, totpNow())).status, 401, 'used up');
  });

  it('ends a refused consent on a page that says so, and changes nothing', async () => {
    const player = await service.registerPlayer();
    standIn.mode = 'deny';
    try {
      assert.equal(problemOf(await link(player, discordUser())), 'denied');
      assert.equal(problemOf(await callback(await atDiscord(await beginLogin()))), 'denied');
    } finally {
      standIn.mode = 'approve';
    }
    assert.equal((await home(player.token)).Discord_integration, false);
  });

  it('refuses a tampered, replayed, expired or missing state, and changes nothing', async () => {
    const player = await service.registerPlayer();
    const discord = discordUser();
    standIn.signIn(discord);
    const back = await atDiscord(await beginLink(player));
    const tampered = back.replace(/state=([^&]+)/, (_all, state: string) => `state=${state.slice(0, -2)}xx`);
    assert.equal(problemOf(await callback(tampered)), 'state');
    assert.equal(problemOf(await callback(back.replace(/&?state=[^&]+/, ''))), 'state');
    assert.equal((await home(player.token)).Discord_integration, false);

    // A replay even with the cookie (copied before it was cleared) is refused.
    const copied: Browser = new Map(usual);
    assert.equal(await callback(back), `${PUBLIC_URL}/home`);
    await service.call('DELETE', '/api/home/discord', { token: player.token });
    const tokenRequests = standIn.tokenRequests.length;
    assert.equal(problemOf(await callback(back, copied)), 'state', 'a state works once');
    assert.equal(standIn.tokenRequests.length, tokenRequests, 'a replay does not reach Discord');
    assert.equal((await home(player.token)).Discord_integration, false);

    const slow = await atDiscord(await beginLink(player));
    clock.advance(10 * 60_000 + 1);
    assert.equal(problemOf(await callback(slow)), 'state');
    assert.equal((await home(player.token)).Discord_integration, false);
  });

  it('ends on a page that says so when Discord is unreachable, answers garbage or refuses the code, and changes nothing', async () => {
    const player = await service.registerPlayer();
    const cases = [
      ['token-down', 'unavailable'],
      ['token-garbage', 'unavailable'],
      ['user-down', 'unavailable'],
      ['user-garbage', 'unavailable'],
      ['token-error', 'refused'],
    ] as const;
    for (const [mode, problem] of cases) {
      standIn.signIn(discordUser());
      const back = await atDiscord(await beginLink(player));
      standIn.mode = mode;
      try {
        assert.equal(problemOf(await callback(back)), problem, mode);
      } finally {
        standIn.mode = 'approve';
      }
      assert.equal((await home(player.token)).Discord_integration, false, mode);
    }
    const { id } = await userRow(player.username);
    assert.deepEqual(await auditOf(id, 'discord.link'), []);
  });

  it('refuses an exchange without a code or with a made-up one', async () => {
    const missing = await service.call('POST', '/api/auth/discord/exchange', { body: {} });
    assert.equal(missing.status, 400);
    const madeUp = await exchange('x'.repeat(43));
    assert.equal(madeUp.status, 401);
  });

  it('limits how many Discord logins one address begins (each writes a row for 10 minutes)', async () => {
    const ip = randomAddress();
    const rows = async () =>
      Number(
        (
          await service.db
            .selectFrom('discord_states')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let begun = 0; begun < 30; begun += 1) assert.equal((await service.call('GET', '/api/auth/discord', { ip })).status, 302);
    const before = await rows();
    const refused = await service.call('GET', '/api/auth/discord', { ip });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(await rows(), before, 'nothing written');
    assert.equal((await service.call('GET', '/api/auth/discord', { ip: randomAddress() })).status, 302, 'another address still may');
  });

  it('binds a login to the browser that began it: its callback address or code carried elsewhere logs nobody in there', async () => {
    // Mallory's Discord is linked to Mallory's account; she wants the victim's browser logged in as her.
    const mallory = await service.registerPlayer();
    const malloryDiscord = discordUser();
    await link(mallory, malloryDiscord);
    const victim = await service.registerPlayer();
    const attacker: Browser = new Map();
    const fresh: Browser = new Map();
    // The victim's browser is in the midst of a Discord login of its own (it holds a cookie of its own).
    const victims: Browser = new Map();
    await beginLogin(victims);
    const victimsCookie = victims.get('discord_browser');
    assert.ok(victimsCookie, 'beginning sets the cookie');

    standIn.signIn(malloryDiscord);
    const back = await atDiscord(await beginLogin(attacker));
    const tokenRequests = standIn.tokenRequests.length;
    assert.equal(problemOf(await callback(back, fresh)), 'browser');
    assert.equal(problemOf(await callback(back, victims)), 'state');
    assert.equal(standIn.tokenRequests.length, tokenRequests, 'nothing reaches Discord');
    assert.deepEqual(victims.get('discord_browser'), victimsCookie, "the victim's own flow is left alone");

    // In her own browser the address still works; the code it leads to works only there.
    const code = codeOf(await callback(back, attacker));
    const ip = randomAddress();
    for (const browser of [fresh, victims]) {
      const refused = await exchange(code, undefined, browser, ip);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.equal(refused.body.data.jwt, undefined);
    }
    // Refusals for another browser neither count on the address's limit of wrong codes nor use the code up.
    for (let tries = 0; tries < 12; tries += 1) assert.equal((await exchange(code, undefined, victims, ip)).status, 401);
    assert.equal((await home(victim.token)).Username, victim.username, 'the victim stays in their own account');
    const done = await exchange(code, undefined, attacker, ip);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await home(done.body.data.jwt)).Username, mallory.username);
    assert.equal(attacker.get('discord_browser'), undefined, 'the cookie is cleared when done');
  });

  it('binds a link to the browser that began it: the consent address completed in another browser links nothing', async () => {
    const mallory = await service.registerPlayer();
    const victimDiscord = discordUser();
    // Mallory begins a link on her account and sends Discord's consent address to the victim, signed in at Discord.
    const consent = await beginLink(mallory, new Map());
    standIn.signIn(victimDiscord);
    const victims: Browser = new Map();
    assert.equal(problemOf(await callback(await atDiscord(consent), victims)), 'browser');
    await beginLogin(victims);
    assert.equal(problemOf(await callback(await atDiscord(consent), victims)), 'state');
    assert.equal((await home(mallory.token)).Discord_integration, false);
    const { id } = await userRow(mallory.username);
    assert.deepEqual(await auditOf(id, 'discord.link'), []);
    // The victim's Discord account is still free: it links to the victim's own account.
    const victim = await service.registerPlayer();
    assert.equal(await link(victim, victimDiscord, victims), `${PUBLIC_URL}/home`);
    assert.equal((await home(victim.token)).Discord.userid, victimDiscord.id);
  });

  it('asks for the password to link (a wrong or missing one is a 401 counted as a failed login) and mails the player', async () => {
    const player = await service.registerPlayer();
    const ip = randomAddress();
    const begin = (body?: object) => service.call('POST', '/api/home/discord', { token: player.token, body, ip });
    for (const body of [{}, { password: '' }, { password: 'not my password' }]) {
      const refused = await begin(body);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
      assert.equal(refused.body.error, true);
      assert.match(refused.body.msg, /Wrong password/);
      assert.equal(refused.headers['set-cookie'], undefined, 'nothing begun');
    }
    // Failures count as failed logins: at the limit, even the right password is refused.
    for (let failures = 3; failures < 10; failures += 1) assert.equal((await begin({ password: 'wrong' })).status, 401);
    assert.equal((await begin({ password: player.password })).status, 429);

    const other = await service.registerPlayer();
    assert.equal(await link(other, discordUser({ username: 'mailed_link' })), `${PUBLIC_URL}/home`);
    const mail = await service.mailbox.waitFor(
      (m) => mailTo(other.mail)(m) && m.subject === 'A Discord account was linked to your account',
    );
    assert.match(mail.text ?? '', /mailed_link/);
  });

  it('asks for the second factor too to link when two-factor login is on', async () => {
    const { player, totpNow, wrongCode } = await playerWithTwoFactor();
    const begin = (body: object) => service.call('POST', '/api/home/discord', { token: player.token, body, ip: randomAddress() });
    const asked = await begin({ password: player.password });
    assert.equal(asked.status, 401);
    assert.deepEqual(asked.body.data, { totp_required: true });
    const wrong = wrongCode();
    const refused = await begin({ password: player.password, totp: wrong });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body.data, {});
    assert.equal((await begin({ password: 'wrong', totp: totpNow() })).status, 401);
    const begun = await begin({ password: player.password, totp: totpNow() });
    assert.equal(begun.status, 200, JSON.stringify(begun.body));
  });

  it('checks at most the limit of Discord login codes sent at once from one address', async () => {
    const ip = randomAddress();
    await beginLogin();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_unused, index) => exchange(`wrong-code-${index}`.padEnd(43, 'x'), undefined, usual, ip)),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 401).length, 10, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 20);
  });

  it('says it is set up, and only players may begin a link', async () => {
    assert.deepEqual((await service.call('GET', '/api/auth/discord/status')).body.data, { enabled: true });
    assert.equal((await service.call('POST', '/api/home/discord')).status, 401);
  });
});

describeEachDatabase('Discord login not set up', (kind) => {
  let service: TestService;
  before(async () => {
    service = await startService(kind);
  });
  after(async () => service?.close());

  it('says so, answers 404 to the link and the login, and still unlinks', async () => {
    assert.deepEqual((await service.call('GET', '/api/auth/discord/status')).body.data, { enabled: false });
    const player = await service.registerPlayer();
    const begun = await service.call('POST', '/api/home/discord', { token: player.token, body: { password: player.password } });
    assert.equal(begun.status, 404);
    assert.match(begun.body.msg, /not set up/);
    assert.equal((await service.call('GET', '/api/auth/discord')).status, 404);
    assert.equal((await service.call('GET', '/api/auth/discord/callback?code=a&state=b')).status, 404);
    // A link made while it was set up can still be undone.
    await service.db
      .updateTable('users')
      .set({ dsid: '80351110224678912', discord_username: 'nelly', discord_avatar: '' })
      .where('username', '=', player.username)
      .execute();
    assert.equal((await service.call('DELETE', '/api/home/discord', { token: player.token })).status, 200);
  });
});
