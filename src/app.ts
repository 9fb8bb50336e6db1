// The composition root: builds the whole service from settings. main.ts and the tests both build it here.
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { installAuthentication } from './accounts/authenticate.ts';
import { MailCodes } from './accounts/codes.ts';
import { Credentials } from './accounts/credentials.ts';
import { Profiles } from './accounts/profile.ts';
import { adminRoutes } from './admin/routes.ts';
import { UserAdmin } from './admin/service.ts';
import { accountRoutes } from './accounts/routes.ts';
import { passwordCheckRoutes } from './accounts/password-check.ts';
import { AccountService } from './accounts/service.ts';
import { ensureOwner, ownerAtStart, ownerLogLine, type OwnerAtStart } from './accounts/owner.ts';
import { Tokens } from './accounts/tokens.ts';
import { twoFactorRoutes } from './two-factor/routes.ts';
import { appPasswordRoutes } from './app-passwords/routes.ts';
import { passkeyRoutes } from './passkeys/routes.ts';
import { Passkeys } from './passkeys/service.ts';
import { AppPasswordLogins, AppPasswords } from './app-passwords/service.ts';
import { SecretBox } from './two-factor/secret-box.ts';
import { TwoFactorService } from './two-factor/service.ts';
import { type Clock, systemClock } from './clock.ts';
import { migrateToLatest, openDatabase } from './database/connect.ts';
import { healthRoutes } from './health/routes.ts';
import { Housekeeping } from './housekeeping/housekeeping.ts';
import { imageRoutes } from './images/routes.ts';
import { dropInRoutes } from './dropin/routes.ts';
import { imageCacheBudgets, ImageService } from './images/service.ts';
import { RenderQueue } from './images/render-queue.ts';
import { envelopeServerOptions, installEnvelope, useErrorShape } from './http/envelope.ts';
import { DiscordClient } from './discord/client.ts';
import { discordRoutes } from './discord/routes.ts';
import { DiscordService } from './discord/service.ts';
import { OidcClient } from './oidc/client.ts';
import { oidcRoutes } from './oidc/routes.ts';
import { OidcService } from './oidc/service.ts';
import { hardwareAdminRoutes } from './gravit/admin-routes.ts';
import { GRAVIT_API_PATH, GRAVIT_ERROR_SCHEMA, gravitErrorBody } from './gravit/errors.ts';
import { HardwareStore } from './gravit/hardware.ts';
import { gravitRoutes } from './gravit/routes.ts';
import { GravitService } from './gravit/service.ts';
import { LauncherSessions } from './sessions/launcher.ts';
import { requestIdGenerator } from './http/request-id.ts';
import { Broadcaster, DEFAULT_BROADCAST_OPTIONS, type BroadcastOptions } from './mail/broadcast.ts';
import { DEFAULT_MAIL_WORKER_OPTIONS, MailWorker, type MailWorkerOptions } from './mail/outbox.ts';
import { createMailTransport } from './mail/transport.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { DashboardService } from './dashboard/service.ts';
import { registrationRoutes } from './registration/routes.ts';
import { Registration } from './registration/service.ts';
import { answerMetricsRequests } from './metrics/cluster.ts';
import { Metrics } from './metrics/metrics.ts';
import { installRequestDurations, RequestDurations } from './metrics/request-durations.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { installOpenApi } from './openapi/openapi.ts';
import { iconRoutes } from './pages/icons.ts';
import { answerUnknownPage, pageRoutes, readBuiltPages } from './pages/routes.ts';
import { MemoryCounterStore, RateLimiter, RedisCounterStore } from './ratelimit/limiter.ts';
import { ImportedPasswordChecks } from './accounts/imported-password-checks.ts';
import { LoginFailures } from './accounts/login-failures.ts';
import type { Settings } from './settings.ts';
import { TextureLibrary } from './textures/library.ts';
import { textureRoutes } from './textures/routes.ts';
import { textureStoreOf } from './textures/store.ts';
import { Wardrobe } from './textures/wardrobe.ts';
import { OwnCapes } from './textures/own-capes.ts';
import { libraryRoutes } from './library/routes.ts';
import { LibraryService } from './library/service.ts';
import { TextureBlocks } from './library/blocks.ts';
import { reportRoutes } from './library/report-routes.ts';
import { Reports } from './library/reports.ts';
import { playerWearingLookups } from './textures/worn.ts';
import { API_ROOT_PATH } from './yggdrasil/errors.ts';
import { PremiumService } from './fallback/premium.ts';
import { premiumRoutes } from './fallback/routes.ts';
import { FallbackService } from './fallback/service.ts';
import { GameProfiles } from './yggdrasil/profiles.ts';
import { profileRoutes } from './profiles/routes.ts';
import { AccountProfiles } from './profiles/service.ts';
import { yggdrasilRoutes } from './yggdrasil/routes.ts';
import { mojangRoutes } from './mojang/routes.ts';
import { Friends } from './friends/friends.ts';
import { MemoryPresenceStore, RedisPresenceStore } from './friends/presence.ts';
import { friendsGameRoutes, friendsHomeRoutes, FriendsService } from './friends/routes.ts';
import { ProfileLookups } from './mojang/lookups.ts';
import { MinecraftProfiles } from './mojang/profile.ts';
import { YggdrasilService } from './yggdrasil/service.ts';
import { GameTokens } from './yggdrasil/tokens.ts';
import { PlayerCertificateKeys } from './yggdrasil/certificates.ts';
import { JoinRecords } from './joins/join-records.ts';
import { lazyServiceKey } from './signing/service-key.ts';
import { requestLogFields } from './http/request-log.ts';
import { Consent } from './oauth/consent.ts';
import { sharedClientId } from './oauth/clients.ts';
import { OAuthGrants } from './oauth/grants.ts';
import { createProvider } from './oauth/provider.ts';
import { clientRoutes, consentRoutes, grantRoutes, providerRoutes } from './oauth/routes.ts';
import { RegisteredClients } from './oauth/registered-clients.ts';
import { GameAttributesService } from './standing/attributes.ts';
import { Bans } from './standing/bans.ts';
import { multiplayerBanRefusal } from './standing/join.ts';
import { ForcedActions } from './standing/forced-actions.ts';
import { GameReports } from './standing/game-reports.ts';
import { exactSalts, GAME_REPORT_URL_END } from './standing/exact-salts.ts';
import { forcedActionRoutes, gameReportAdminRoutes, gameReportGameRoute } from './standing/game-report-routes.ts';
import { BlockedServers } from './standing/blocked-servers.ts';
import { PlayerBlocks } from './standing/blocks.ts';
import {
  banRoutes,
  blockedServerRoutes,
  blockedServersGameRoute,
  blocklistGameRoute,
  playerBlockRoutes,
  standingGameRoutes,
} from './standing/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether an owner account exists after the start, for the start line (src/start-line.ts). */
    ownerAtStart: OwnerAtStart;
  }
}

export interface AppOptions {
  clock?: Clock;
  mailWorker?: Partial<MailWorkerOptions>;
  broadcast?: Partial<BroadcastOptions>;
  /** false: no request logging (tests); the default logs at settings.logLevel. */
  logger?: boolean;
  /** Where log lines go (main.ts: readable lines on a terminal); standard output, as JSON lines, by default. */
  logDestination?: { write(line: string): void };
  /** The built pages (tests may build them elsewhere); web/dist by default. */
  webDir?: string;
  /** How often the official textures of premium links are looked at (src/fallback/premium.ts); every minute by default. */
  premiumRefreshIntervalMs?: number;
  /** How often ended sessions and tokens are removed (src/housekeeping); hourly by default. */
  housekeepingIntervalMs?: number;
}

export async function buildApp(settings: Settings, options: AppOptions = {}): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    ...envelopeServerOptions,
    logger:
      options.logger === false
        ? false
        : {
            level: settings.logLevel,
            serializers: { req: requestLogFields },
            ...(options.logDestination && { stream: options.logDestination }),
          },
    genReqId: requestIdGenerator(settings.trustProxy),
    // true trusts one hop, the nearest proxy: the address it saw, not one a client wrote into X-Forwarded-For before
    // it. (Fastify's own true trusts every hop; its hop count 1 trusts none.)
    trustProxy: settings.trustProxy === true ? (_address: string, hop: number) => hop === 0 : settings.trustProxy,
    bodyLimit: 64 * 1024,
    // allowUnionTypes: expired_at is a number or an ISO string (contract section 3).
    ajv: { customOptions: { removeAdditional: false, allErrors: false, allowUnionTypes: true } },
  });
  try {
    await assemble(app, settings, options, clock);
  } catch (error) {
    // A start refused half-way (an owner the settings cannot create, a database that breaks) closes what it opened:
    // the database pool, Redis, the mail transport.
    await app.close();
    throw error;
  }
  return app;
}

/** Everything of the service on `app`: the parts, their background loops and close hooks, and the routes. */
async function assemble(app: FastifyInstance, settings: Settings, options: AppOptions, clock: Clock) {
  const pages = readBuiltPages(options.webDir);
  // The API location header on every response lets a launcher find the game login from the site's bare address.
  installEnvelope(app, {
    answerUnmatched: answerUnknownPage(pages),
    headers: { 'x-authlib-injector-api-location': `${settings.publicUrl}${API_ROOT_PATH}` },
  });
  // Before any route is registered: each route gets its own duration recorder.
  const requestDurations = new RequestDurations();
  installRequestDurations(app, requestDurations);
  // JSON is the only body type here (multipart is added per route); anything else gets 415.
  app.removeAllContentTypeParsers();
  // An empty body with a JSON content type (logout from some clients) counts as no body rather than an error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    try {
      // A game report's salts are 64-bit integers: kept as their exact digits, which a JS number would round.
      const reviver = _request.url.endsWith(GAME_REPORT_URL_END) ? exactSalts : undefined;
      done(null, JSON.parse(body as string, reviver));
    } catch {
      done(
        Object.assign(new Error('Request body is not valid JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }),
        undefined,
      );
    }
  });

  const db = openDatabase(settings.database, (error) => app.log.warn({ err: error }, 'a database connection broke; it will be replaced'));
  await migrateToLatest(db);

  const redis = settings.redisUrl ? new Redis(settings.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : null;
  // In a shared Redis, under the name this database holds (migration 014): another service's counters never mix in.
  const redisPrefix = async () =>
    `skinservice:rate:${(await db.selectFrom('deployment').select('namespace').executeTakeFirstOrThrow()).namespace}:`;
  const presencePrefix = async () => (await redisPrefix()).replace(/^skinservice:rate:/, 'skinservice:presence:');
  const limiter = new RateLimiter(redis ? new RedisCounterStore(redis, await redisPrefix()) : new MemoryCounterStore(clock));

  const transport = createMailTransport({
    smtpUrl: settings.smtpUrl,
    from: settings.mailFrom,
    outboxDir: join(settings.dataDir, 'outbox'),
    log: app.log,
  });
  const mailWorker = new MailWorker(db, transport, clock, app.log, { ...DEFAULT_MAIL_WORKER_OPTIONS, ...options.mailWorker });
  const broadcaster = new Broadcaster(db, clock, app.log, { ...DEFAULT_BROADCAST_OPTIONS, ...options.broadcast }, () => mailWorker.wake());
  const housekeeping = new Housekeeping(db, clock, app.log, options.housekeepingIntervalMs);
  app.addHook('onReady', async () => {
    mailWorker.start();
    broadcaster.start();
    housekeeping.start();
  });
  // The loops stop as soon as a stop begins, while the requests in flight finish, so that a stalled SMTP server and a
  // stuck client do not add up. They may be mid-batch and still write their outcome: the database goes last.
  let backgroundStopped: Promise<unknown> = Promise.resolve();
  app.addHook('preClose', async () => {
    backgroundStopped = Promise.all([broadcaster.stop(), mailWorker.stop(), housekeeping.stop()]);
  });
  app.addHook('onClose', async () => {
    await backgroundStopped;
    await redis?.quit();
    await db.destroy();
  });

  const tokens = new Tokens(settings.jwtSecret, settings.jwtTtlSeconds, settings.publicUrl, clock);
  // Imported passwords of the slow formats are checked in two worker threads, which end with the app.
  const importedChecks = new ImportedPasswordChecks();
  app.addHook('onClose', () => importedChecks.close());
  const failures = new LoginFailures(db, clock, limiter, importedChecks);
  const twoFactor = new TwoFactorService({
    db,
    clock,
    failures,
    box: new SecretBox(settings.totpKey),
    issuer: settings.serverName,
    publicUrl: settings.publicUrl,
    mailQueued: () => mailWorker.wake(),
  });
  // Every way in checks passwords here, and with it the second factor of an account that has two-factor login on
  // (and, where a way in takes them, the account's app passwords).
  const credentials = new Credentials(db, failures, twoFactor, clock, new AppPasswordLogins(db, clock));
  const registration = new Registration(db, clock, settings.publicUrl, settings.registration, limiter);
  const mailCodes = new MailCodes(settings.jwtSecret);
  const accounts = new AccountService({
    db,
    clock,
    tokens,
    codes: mailCodes,
    limiter,
    failures,
    credentials,
    mailQueued: () => mailWorker.wake(),
    texturesChanged: () => images.forgetResolutions(),
    releaseTextures: (work) => library.releasing(work),
    publicUrl: settings.publicUrl,
    profileRules: settings.profiles,
    admission: registration,
  });
  if (settings.owner) {
    const outcome = await ensureOwner({ db, clock, profileRules: settings.profiles, importedChecks }, settings.owner);
    app.log.info({ username: outcome.name }, ownerLogLine(outcome));
  }
  app.decorate('ownerAtStart', await ownerAtStart(db, settings.owner !== null));

  const store = textureStoreOf(settings, db);
  const cacheBudgets = imageCacheBudgets(settings.renderCacheBytes);
  const library = new TextureLibrary(db, store, clock, cacheBudgets.textures);
  const swept = await library.sweep();
  if (swept > 0) app.log.info({ removed: swept }, 'removed textures nothing refers to');
  const images = new ImageService(db, library, clock, settings.publicUrl, cacheBudgets.images, new RenderQueue(limiter));
  const wardrobe = new Wardrobe(
    db,
    library,
    clock,
    settings.publicUrl,
    settings.maxSkinWidth,
    () => images.forgetResolutions(),
    () => mailWorker.wake(),
  );

  const metrics = new Metrics(requestDurations, db, images, mailWorker);
  const stopAnsweringMetrics = answerMetricsRequests(() => metrics.processMetrics());
  app.addHook('onClose', async () => stopAnsweringMetrics());

  // Contract section 20: the sources of official accounts (MOJANG_FALLBACK skins or auth), the premium link, and with
  // `auth` the game login's fall-through.
  const fallback = settings.fallback ? new FallbackService(db, clock, settings.fallback) : null;
  const fallThrough = settings.fallback?.mode === 'auth' ? fallback : null;
  fallback?.start();
  const profiles = new Profiles(
    db,
    settings.profiles.maxProfiles,
    fallback
      ? {
          nameOf: (key) => fallback.sources.find((source) => source.key === key)?.name ?? key,
          orderOf: (key) => fallback.sources.findIndex((source) => source.key === key),
        }
      : undefined,
  );
  const accountProfiles = new AccountProfiles(db, clock, settings.profiles, wardrobe, () => images.forgetResolutions());
  const premium =
    fallback && settings.fallback
      ? new PremiumService({
          db,
          clock,
          settings: settings.fallback,
          sources: fallback.sources,
          secret: settings.jwtSecret,
          library,
          wardrobe,
          profiles: accountProfiles,
          profileSettings: settings.profiles,
          maxTextureBytes: settings.maxTextureBytes,
          maxSkinWidth: settings.maxSkinWidth,
          texturesChanged: () => images.forgetResolutions(),
          mailQueued: () => mailWorker.wake(),
          log: app.log,
          refreshIntervalMs: options.premiumRefreshIntervalMs ?? 60_000,
          limiter,
        })
      : null;
  if (premium) {
    app.addHook('onReady', async () => premium.start());
    app.addHook('preClose', async () => premium.stop());
  }
  await installOpenApi(app, settings.publicUrl);
  const gameTokens = new GameTokens(db, clock, settings.yggdrasilConnect);
  installAuthentication(app, db, tokens, clock, (accessToken) => gameTokens.callerOf(accessToken));
  healthRoutes(app, db);
  metricsRoutes(app, metrics, settings.metricsToken);
  accountRoutes(app, accounts, profiles, wardrobe, premium);
  if (premium) premiumRoutes(app, premium);
  passwordCheckRoutes(app, limiter);
  twoFactorRoutes(app, twoFactor);
  appPasswordRoutes(app, new AppPasswords({ db, clock, credentials, publicUrl: settings.publicUrl, mailQueued: () => mailWorker.wake() }));
  passkeyRoutes(
    app,
    new Passkeys({
      db,
      clock,
      failures,
      credentials,
      limiter,
      tokens,
      publicUrl: settings.publicUrl,
      serverName: settings.serverName,
      mailQueued: () => mailWorker.wake(),
    }),
  );
  adminRoutes(
    app,
    new UserAdmin(
      db,
      profiles,
      clock,
      () => images.forgetResolutions(),
      settings.profiles,
      () => mailWorker.wake(),
    ),
    broadcaster,
  );
  profileRoutes(app, accountProfiles, failures);
  registrationRoutes(app, registration);
  dashboardRoutes(app, new DashboardService(db, clock, () => registration.mode()));
  const ownCapes = new OwnCapes(db, library, wardrobe, clock, settings.maxSkinWidth, settings.userCapes, () => images.forgetResolutions());
  await textureRoutes(app, wardrobe, ownCapes, settings.maxTextureBytes);
  libraryRoutes(
    app,
    new LibraryService(
      db,
      library,
      wardrobe,
      clock,
      settings.publicUrl,
      settings.userCapes,
      () => images.forgetResolutions(),
      settings.libraryReview,
      () => mailWorker.wake(),
    ),
    new TextureBlocks(db, clock),
  );
  // Reports of library entries and the moderation queue (contract section 19); ban_owner bans as the ban routes do.
  reportRoutes(
    app,
    new Reports(
      db,
      library,
      new Bans(db, clock, () => mailWorker.wake()),
      clock,
      settings.publicUrl,
      () => mailWorker.wake(),
      () => images.forgetResolutions(),
    ),
  );
  imageRoutes(app, images);
  dropInRoutes(app, images);
  const serviceKey = lazyServiceKey(db, clock, 'yggdrasil');
  const players = playerWearingLookups(db);
  const joins = new JoinRecords(db, clock);
  // Standing in the game (contract section 24): bans refuse the game's join whether or not GAME_SERVICES is on.
  const bans = new Bans(db, clock, () => mailWorker.wake());
  banRoutes(app, bans);
  const blockedServers = new BlockedServers(db, clock);
  blockedServerRoutes(app, blockedServers);
  const playerBlocks = new PlayerBlocks(db, clock);
  playerBlockRoutes(app, playerBlocks);
  // Friends (contract section 25): the profile page's routes with FRIENDS, the game's with GAME_SERVICES too.
  const friends = settings.friends
    ? new FriendsService(
        new Friends(db, clock),
        redis ? new RedisPresenceStore(redis, await presencePrefix()) : new MemoryPresenceStore(clock),
        () => clock.now(),
      )
    : null;
  if (friends) friendsHomeRoutes(app, friends);
  // Forced renames and blocked skins, and the reports from the game (contract section 24).
  const forcedActions = new ForcedActions(db, clock, () => images.forgetResolutions());
  forcedActionRoutes(app, forcedActions);
  const gameReports = new GameReports(db, clock, players, bans, forcedActions, () => mailWorker.wake());
  gameReportAdminRoutes(app, gameReports);
  if (settings.gameServices) gameReportGameRoute(app, gameReports);
  const banRefusal = multiplayerBanRefusal(db, bans);
  if (settings.gameServices) {
    standingGameRoutes(app, new GameAttributesService(db, bans, friends?.friends ?? null));
    if (friends) friendsGameRoutes(app, friends);
    blockedServersGameRoute(app, blockedServers);
    blocklistGameRoute(app, playerBlocks);
  }
  const yggdrasil = new YggdrasilService({
    db,
    clock,
    credentials,
    tokens: gameTokens,
    profiles: new GameProfiles(serviceKey, settings.publicUrl, clock),
    players,
    joins,
    wardrobe,
    ownCapes,
    certificates: new PlayerCertificateKeys(db, clock, serviceKey, settings.totpKey),
    limiter,
    offlineSkins: settings.offlineSkins,
    refuseJoin: async (userId, profileId) => (await banRefusal(userId)) ?? (await forcedActions.joinRefusal(profileId)),
    profileActions: (player) => forcedActions.forPlayer(player),
    fallThrough,
  });
  await yggdrasilRoutes(app, yggdrasil, library, serviceKey, {
    ...settings,
    otherSkinDomains: () => fallThrough?.skinDomains() ?? [],
  });
  const minecraftProfiles = new MinecraftProfiles({
    db,
    wardrobe,
    profiles: accountProfiles,
    library,
    settings: settings.profiles,
    publicUrl: settings.publicUrl,
    now: () => clock.now(),
  });
  await mojangRoutes(
    app,
    { lookups: new ProfileLookups(db, fallThrough), profiles: minecraftProfiles },
    settings.maxTextureBytes,
    settings.gameServices,
  );
  // The hardware a LaunchServer reports; its sql core fills the same tables, so the admin routes are always there.
  const hardware = new HardwareStore(db, clock);
  hardwareAdminRoutes(app, hardware, settings.gravitToken !== null);
  // The GravitLauncher API's error shape also without GRAVIT_TOKEN: a LaunchServer pointed at a service without it
  // then logs a readable 404 rather than an envelope.
  useErrorShape(app, GRAVIT_API_PATH, gravitErrorBody, GRAVIT_ERROR_SCHEMA);
  if (settings.gravitToken !== null) {
    const gravit = new GravitService({
      db,
      clock,
      credentials,
      sessions: new LauncherSessions(db, clock, settings.gravitTokenTtlSeconds * 1000),
      hardware,
      joins,
      assetsOf: (uuid) => images.launcherDocument(uuid),
    });
    await gravitRoutes(app, gravit, settings.gravitToken);
  }
  const oauthGrants = new OAuthGrants(db, clock, gameTokens, settings.publicUrl);
  grantRoutes(app, oauthGrants);
  clientRoutes(app, new RegisteredClients(db, clock, oauthGrants));
  if (settings.yggdrasilConnect) {
    const provider = await createProvider({
      db,
      clock,
      publicUrl: settings.publicUrl,
      jwtSecret: settings.jwtSecret,
      totpKey: settings.totpKey,
      grants: oauthGrants,
      sharedClientId: await sharedClientId(db, clock),
    });
    await providerRoutes(app, provider, settings.publicUrl, limiter);
    consentRoutes(
      app,
      new Consent({
        provider,
        db,
        clock,
        grants: oauthGrants,
        limiter,
        publicUrl: settings.publicUrl,
        mailQueued: () => mailWorker.wake(),
      }),
    );
  }
  const discordRedirect = `${settings.publicUrl}/api/auth/discord/callback`;
  discordRoutes(
    app,
    new DiscordService({
      db,
      clock,
      client: settings.discord ? new DiscordClient(settings.discord, discordRedirect) : null,
      tokens,
      credentials,
      failures,
      limiter,
      publicUrl: settings.publicUrl,
      log: app.log,
      mailQueued: () => mailWorker.wake(),
    }),
    settings.publicUrl,
  );
  // OpenID Connect providers (contract section 26): discovery now, a provider that does not answer retried later.
  const oidcClients = settings.oidcProviders.map(
    (provider) => new OidcClient(provider, `${settings.publicUrl}/api/auth/oidc/${provider.id}/callback`, clock, app.log),
  );
  await Promise.all(oidcClients.map((client) => client.start()));
  app.addHook('onClose', async () => oidcClients.forEach((client) => client.close()));
  oidcRoutes(
    app,
    new OidcService({
      db,
      clock,
      clients: oidcClients,
      tokens,
      credentials,
      limiter,
      publicUrl: settings.publicUrl,
      log: app.log,
      mailQueued: () => mailWorker.wake(),
      registration: { codes: mailCodes, profileRules: settings.profiles, admission: registration },
    }),
    settings.publicUrl,
  );
  pageRoutes(app, pages);
  iconRoutes(app, settings.serverName);
}
