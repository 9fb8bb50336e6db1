// The one authentication hook. A route declares who may call it in one word (`config: { access: 'admin' }`);
// the hook checks the token and its session, computes the caller's effective level and puts it on the request as
// the one Caller every route hands to the services, whichever kind of session the request came through.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { actingOf, type ActingAccount } from '../audit/acting.ts';
import { recordAudit, SYSTEM } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import { reusableQuery } from '../database/reusable-query.ts';
import type { Database, UserRow } from '../database/schema.ts';
import { ApiError, fixedError, forbidden, unauthorized } from '../http/envelope.ts';
import { bearerToken } from '../http/secrets.ts';
import type { SessionKind } from '../sessions/kinds.ts';
import { webSessionQuery } from '../sessions/lookup.ts';
import { holdingsColumn, holdingsFromColumn, type Holding } from './profile.ts';
import { effectiveLevel, LEVELS, standingProblem, accountPerms, standingRefusal } from './standing.ts';
import type { Tokens } from './tokens.ts';

/**
 * - public: no token needed.
 * - registering: any valid token, also of an account that has not finished registration (registerfinish, logout,
 *   own profile).
 * - player, moderator, admin, owner: a finished, verified, unbanned account at that effective level or above.
 * - game: a game login token (Yggdrasil's Bearer routes), live, of an account in good standing whose player name is
 *   still the one the token was issued for.
 */
export type Access = 'public' | 'registering' | 'player' | 'moderator' | 'admin' | 'owner' | 'game';

/**
 * Who calls a protected route: the acting party (src/audit/acting.ts) the routes hand to the services, with what
 * only the HTTP edge has: the user row, the session the request came through and its game profile.
 */
export interface Caller extends ActingAccount {
  user: Pick<UserRow, CallerColumn>;
  /** The session the request came through: its kind (sessions/kinds.ts) and its id within that kind. */
  session: { kind: SessionKind; id: number };
  /** The game profile the session acts as: a game token's. null: a session bound to no profile (a web session). */
  profile: CallerProfile | null;
  /** The caller's skins, capes and two-factor flag, on routes that declare `readsHoldings`. */
  holdings?: Holding[];
}

export interface CallerProfile {
  uuid: string;
  name: string;
}

/**
 * The caller of a game access token, or null when the token may not be used. The game login's tokens are above this
 * folder (yggdrasil/): the composition root hands their lookup in.
 */
export type GameCallerResolver = (accessToken: string) => Promise<Caller | null>;

/** The refusals of the game login's Bearer routes, in that API's words (its error shape, yggdrasil/errors.ts). */
const GAME_TOKEN_MISSING = 'Send the header Authorization: Bearer <access token>';
const GAME_TOKEN_REFUSED = 'The access token is invalid, expired or revoked; log in again';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The route answers the caller's profile: its holdings are read in the same statement as the session. */
    readsHoldings?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Every route with the access it declares ("METHOD /path" -> access), for the permission matrix test. */
    routeAccess: Map<string, Access>;
    /**
     * The caller of a public route that answers more to some callers (a pending library entry to its owner): the
     * account of a valid token in good standing, else null (no token, a bad one, or an account that may not act).
     */
    callerIfAny(request: FastifyRequest): Promise<Caller | null>;
  }
}

/** The caller of a route that declared an access other than public. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error(`route ${request.routeOptions.url} reads the caller but declares no access`);
  return request.caller;
}

/** What a route may read of its caller: the user row without the password hash and the launcher fields. */
export const CALLER_COLUMNS = [
  'users.id',
  'users.username',
  'users.mail',
  'users.mail_key',
  'users.mail_verify',
  'users.mail_verification',
  'users.uuid',
  'users.perms',
  'users.dsid',
  'users.discord_username',
  'users.discord_avatar',
  'users.selected_skin_id',
  'users.selected_cape_id',
  'users.language',
  'users.max_profiles',
  'users.banned_until',
] as const;

type CallerColumn = (typeof CALLER_COLUMNS)[number] extends `users.${infer Column}` ? Column : never;

/** The one resolver of a Caller, whichever kind of session: the web session's hook and the game token's lookup. */
export const callerFrom = (
  user: Caller['user'],
  session: Caller['session'],
  level: number,
  profile: CallerProfile | null,
  holdings?: Holding[],
): Caller => ({ ...actingOf(user, level), user, session, profile, ...(holdings !== undefined && { holdings }) });

/** The session named by a token, with its user and role grant: one query on every authenticated request. */
function sessionQuery(db: Kysely<Database>, { sessionId, userId }: { sessionId: number; userId: number }) {
  return webSessionQuery(db, sessionId, userId)
    .leftJoin('role_grants', 'role_grants.user_id', 'users.id')
    .select(CALLER_COLUMNS)
    .select([
      'role_grants.id as grant_id',
      'role_grants.role_level as grant_level',
      'role_grants.expires_at as grant_expires_at',
      'role_grants.expiry_recorded as grant_expiry_recorded',
    ]);
}

const PLACEHOLDERS = { sessionId: -101, userId: -102 };

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>['execute']>>[number] & { holdings?: unknown };
type SessionLookup = (params: typeof PLACEHOLDERS) => Promise<SessionRow[]>;

/** The session lookup, compiled once (reusable-query.ts); with the caller's holdings when `withHoldings`. */
function sessionLookup(db: Kysely<Database>, withHoldings: boolean): SessionLookup {
  return withHoldings
    ? reusableQuery(db, PLACEHOLDERS, (params) => sessionQuery(db, params).select(holdingsColumn(db)))
    : reusableQuery(db, PLACEHOLDERS, (params) => sessionQuery(db, params));
}

export function installAuthentication(
  app: FastifyInstance,
  db: Kysely<Database>,
  tokens: Tokens,
  clock: Clock,
  gameCallerOf: GameCallerResolver,
) {
  app.decorate('routeAccess', new Map<string, Access>());
  app.decorateRequest('caller', null);
  const accessCheck = (lookup: SessionLookup) => async (request: FastifyRequest) => {
    const access = request.routeOptions.config.access as Exclude<Access, 'public' | 'game'>;
    const caller = await identify(request.headers.authorization, db, lookup, tokens, clock);
    const { username, mail_verify, mail_verification } = caller.user;
    const facts = { username, mail_verify, mail_verification, level: caller.level };
    const problem = standingProblem(facts, access === 'registering' ? ['unverified', 'unfinished'] : []);
    if (problem) throw new ApiError(403, await standingRefusal(db, caller.user, problem, clock.now()));
    if (access !== 'registering' && caller.level < LEVELS[access]) {
      throw forbidden('accounts.levelNeeded', { level: LEVELS[access], name: access });
    }
    request.caller = caller;
  };
  const lookup = sessionLookup(db, false);
  const checkAccess = accessCheck(lookup);
  app.decorate('callerIfAny', async (request: FastifyRequest) => {
    if (!bearerToken(request.headers.authorization)) return null;
    // A token that does not identify anyone (401) answers as no token; a failing database still fails the request.
    const caller = await identify(request.headers.authorization, db, lookup, tokens, clock).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    });
    if (!caller) return null;
    const { username, mail_verify, mail_verification } = caller.user;
    return standingProblem({ username, mail_verify, mail_verification, level: caller.level }) ? null : caller;
  });
  const checkAccessReadingHoldings = accessCheck(sessionLookup(db, true));
  const checkGameAccess = async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw fixedError(401, GAME_TOKEN_MISSING);
    const caller = await gameCallerOf(token);
    if (!caller) throw fixedError(401, GAME_TOKEN_REFUSED);
    request.caller = caller;
  };
  // Attached to the protected routes only: public ones (images, the launcher document) pay nothing for it.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access ?? 'public';
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeAccess.set(`${method} ${route.url}`, access);
    }
    if (access === 'public') {
      if (route.config?.readsHoldings) throw new Error(`${route.url}: readsHoldings needs an access other than public`);
      return;
    }
    if (access === 'game' && route.config?.readsHoldings) throw new Error(`${route.url}: readsHoldings is for web sessions`);
    const check = access === 'game' ? checkGameAccess : route.config?.readsHoldings ? checkAccessReadingHoldings : checkAccess;
    route.onRequest = [check, ...[route.onRequest ?? []].flat()];
  });
}

async function identify(
  header: string | undefined,
  db: Kysely<Database>,
  lookup: SessionLookup,
  tokens: Tokens,
  clock: Clock,
): Promise<Caller> {
  const token = bearerToken(header);
  if (!token) throw unauthorized('accounts.missingToken');
  const claims = await tokens.verify(token);
  const now = clock.now();
  const [row] = await lookup({ sessionId: claims.sessionId, userId: claims.userId });
  if (!row || row.session_revoked_at !== null || row.session_expires_at <= now) {
    throw unauthorized('accounts.tokenRevoked');
  }
  const { session_revoked_at, session_expires_at, grant_id, grant_level, grant_expires_at, grant_expiry_recorded, holdings, ...user } = row;
  const grant = grant_id !== null && grant_level !== null ? { role_level: grant_level, expires_at: grant_expires_at } : null;
  if (grant && grant_expires_at !== null && grant_expires_at <= now && grant_expiry_recorded === 0) {
    await recordGrantExpiry(db, grant_id!, user.id, grant.role_level, grant_expires_at, now);
  }
  const level = effectiveLevel(accountPerms(user, now), grant, now);
  return callerFrom(
    user,
    { kind: 'web', id: claims.sessionId },
    level,
    null,
    holdings === undefined ? undefined : holdingsFromColumn(holdings),
  );
}

/** Expiry needs no scheduler: the first request that sees a lapsed grant writes it to the audit log, once. */
async function recordGrantExpiry(db: Kysely<Database>, grantId: number, userId: number, level: number, expiredAt: number, now: number) {
  await db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('role_grants')
      .set({ expiry_recorded: 1 })
      .where('id', '=', grantId)
      .where('expiry_recorded', '=', 0)
      .executeTakeFirst();
    if (marked.numUpdatedRows === 1n) {
      await recordAudit(trx, now, {
        actor: SYSTEM,
        action: 'role.expire',
        target: userId,
        details: { role_level: level, expired_at: Math.floor(expiredAt / 1000) },
      });
    }
  });
}
