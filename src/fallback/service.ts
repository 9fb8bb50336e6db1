// Players unknown here, looked for elsewhere (contract section 20, MOJANG_FALLBACK=auth): the game server's
// hasJoined, profile and name look-ups fall through to Mojang and the FALLBACK_SERVERS, in order; the first source
// that knows the player answers, with its own answer (its signature kept). Local players always win: a source's
// answer naming a UUID or a name that a profile here has is dropped. Every source is asked at once; one that does
// not answer within 2 s counts as unknown, and the whole look-up ends after 3 s at most.
import type { Kysely } from 'kysely';
import { normalizeUuid } from '../accounts/identifiers.ts';
import { usernameKey } from '../accounts/rules.ts';
import { ByteBudgetCache } from '../caching/byte-budget-cache.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../database/schema.ts';
import type { FallbackSettings } from '../settings.ts';
import type { FallThrough } from '../yggdrasil/service.ts';
import type { GameProfile, ProfileProperty, ProfileRef } from '../yggdrasil/shapes.ts';
import { askSource, type SourceAnswer } from './client.ts';
import { FallbackSource } from './sources.ts';

/** A source slower than this counts as unknown. */
export const SOURCE_TIMEOUT_MS = 2_000;
/** No answer waits on the sources longer than this in all. */
export const ANSWER_DEADLINE_MS = 3_000;
/** Memory for cached answers, found or not. */
const CACHE_BYTES = 8 * 1024 * 1024;
const MAX_PROPERTIES = 16;

type Cached<T> = { value: T | null; byteLength: number };
const cached = <T>(value: T | null): Cached<T> => ({ value, byteLength: JSON.stringify(value).length });

/** A status that says "this source does not know them", which may be cached like a found answer. */
const isNotFound = (answer: SourceAnswer) => answer?.status === 204 || answer?.status === 404;

export class FallbackService implements FallThrough {
  readonly sources: FallbackSource[];
  private readonly profiles: ByteBudgetCache<Cached<GameProfile>>;
  private readonly names: ByteBudgetCache<Cached<ProfileRef>>;

  constructor(
    private readonly db: Kysely<Database>,
    clock: Clock,
    settings: FallbackSettings,
  ) {
    this.sources = settings.sources.map((source) => new FallbackSource(source, () => clock.now()));
    const expiry = { ttlMs: settings.cacheTtlSeconds * 1000, now: () => clock.now() };
    this.profiles = new ByteBudgetCache(CACHE_BYTES / 2, expiry);
    this.names = new ByteBudgetCache(CACHE_BYTES / 2, expiry);
  }

  /** Reads every source's metadata in the background; the look-ups never wait for it. */
  start(): void {
    for (const source of this.sources) void source.readMetadata();
  }

  /** The hosts the sources' textures come from (the game accepts textures only from the metadata's skinDomains). */
  skinDomains(): string[] {
    return [...new Set(this.sources.flatMap((source) => source.skinDomains))];
  }

  /** Never cached: a join is a moment. `ip` is passed on, as the game server sent it. */
  async hasJoined(username: string, serverId: string, ip?: string): Promise<GameProfile | null> {
    const query = new URLSearchParams({ username, serverId, ...(ip !== undefined && { ip }) });
    const found = await this.firstFound(async (source, _index, signal) => {
      const answer = await askSource(`${source.sessionBase}hasJoined?${query}`, signal);
      const profile = answer?.status === 200 ? gameProfileOf(answer.body) : null;
      // A source answers for the name asked, in whatever letter case it keeps it.
      return profile && usernameKey(profile.name) === usernameKey(username) ? profile : null;
    });
    return found && !(await this.takenHere([found])).has(found) ? found : null;
  }

  /** `id` is a UUID in any form; the source is asked for it without dashes, as Mojang's paths take it. */
  async profile(id: string, signed: boolean): Promise<GameProfile | null> {
    const uuid = normalizeUuid(id);
    if (!uuid) return null;
    const bare = uuid.replace(/-/g, '');
    const found = await this.firstFound(async (source, index, signal) => {
      const key = `${index}\u0000${bare}\u0000${signed}`;
      const hit = this.profiles.get(key);
      if (hit) return hit.value;
      const answer = await askSource(`${source.sessionBase}profile/${bare}${signed ? '?unsigned=false' : ''}`, signal);
      const profile = answer?.status === 200 ? gameProfileOf(answer.body) : null;
      // Only what the source said is remembered; a source that did not answer is asked again next time.
      if (profile?.id.toLowerCase() === bare) this.profiles.set(key, cached(profile));
      else if (isNotFound(answer)) this.profiles.set(key, cached<GameProfile>(null));
      return profile?.id.toLowerCase() === bare ? profile : null;
    });
    return found && !(await this.takenHere([found])).has(found) ? found : null;
  }

  /** Names unknown here to profiles, the first source in order that knows a name answering for it. */
  async lookUpNames(names: string[]): Promise<ProfileRef[]> {
    const keys = [...new Set(names.map(usernameKey))];
    if (keys.length === 0) return [];
    const bySource = await Promise.all(this.asked((source, index, signal) => this.namesAt(source, index, keys, signal)));
    const found: ProfileRef[] = [];
    for (const key of keys) {
      const ref = bySource.map((known) => known.get(key)).find((answer) => answer);
      if (ref) found.push(ref);
    }
    const taken = await this.takenHere(found);
    return found.filter((ref) => !taken.has(ref));
  }

  /** One source's answers for these names: found, null when it does not know them, absent when it did not say. */
  private async namesAt(source: FallbackSource, index: number, keys: string[], signal: AbortSignal) {
    const known = new Map<string, ProfileRef | null>();
    const missing: string[] = [];
    for (const key of keys) {
      const hit = this.names.get(`${index}\u0000${key}`);
      if (hit) known.set(key, hit.value);
      else missing.push(key);
    }
    const batches: string[][] = [];
    for (let at = 0; at < missing.length; at += source.lookupBatch) batches.push(missing.slice(at, at + source.lookupBatch));
    await Promise.all(
      batches.map(async (batch) => {
        const answer = await askSource(source.lookupUrl, signal, batch);
        if (answer?.status !== 200 || !Array.isArray(answer.body)) return;
        const refs = new Map(
          answer.body.flatMap((entry: unknown) => {
            const ref = profileRefOf(entry);
            return ref ? [[usernameKey(ref.name), ref] as const] : [];
          }),
        );
        for (const key of batch) {
          const ref = refs.get(key) ?? null;
          known.set(key, ref);
          this.names.set(`${index}\u0000${key}`, cached(ref));
        }
      }),
    );
    return known;
  }

  /** Asks every source at once, each within its own budget and the answer's deadline. */
  private asked<T>(ask: (source: FallbackSource, index: number, signal: AbortSignal) => Promise<T>, stop?: AbortSignal): Promise<T>[] {
    const deadline = AbortSignal.timeout(ANSWER_DEADLINE_MS);
    return this.sources.map((source, index) => {
      const signal = AbortSignal.any([AbortSignal.timeout(SOURCE_TIMEOUT_MS), deadline, ...(stop ? [stop] : [])]);
      return ask(source, index, signal);
    });
  }

  /** The first source in order that knows the player; the later ones are no longer waited for. */
  private async firstFound<T>(ask: (source: FallbackSource, index: number, signal: AbortSignal) => Promise<T | null>): Promise<T | null> {
    const stop = new AbortController();
    const answers = this.asked(ask, stop.signal);
    try {
      for (const answer of answers) {
        const found = await answer.catch(() => null);
        if (found !== null) return found;
      }
      return null;
    } finally {
      stop.abort();
    }
  }

  /** Those of `refs` whose UUID or name a profile here has: a source never answers for a local player. */
  private async takenHere<T extends ProfileRef>(refs: T[]): Promise<Set<T>> {
    const uuids = refs.map((ref) => normalizeUuid(ref.id)).filter((uuid): uuid is string => uuid !== null);
    const nameKeys = refs.map((ref) => usernameKey(ref.name));
    if (refs.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('profiles')
      .select(['uuid', 'name_key'])
      .where((eb) => eb.or([eb('uuid', 'in', uuids.length > 0 ? uuids : ['']), eb('name_key', 'in', nameKeys)]))
      .execute();
    const takenUuids = new Set(rows.map((row) => row.uuid));
    const takenNames = new Set(rows.map((row) => row.name_key));
    return new Set(refs.filter((ref) => takenUuids.has(normalizeUuid(ref.id) ?? '') || takenNames.has(usernameKey(ref.name))));
  }
}

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

/** `{id, name}` as a source sends it: a UUID (without dashes, as the API writes it) and a name. */
function profileRefOf(body: unknown): ProfileRef | null {
  if (typeof body !== 'object' || body === null) return null;
  const { id, name } = body as Record<string, unknown>;
  if (!isText(id, 36) || !normalizeUuid(id) || !isText(name, 64) || /[\u0000-\u001f]/.test(name)) return null;
  return { id, name };
}

/** A profile as a source sends it, with only the fields the API has: the values and signatures are kept as sent. */
function gameProfileOf(body: unknown): GameProfile | null {
  const ref = profileRefOf(body);
  const properties = (body as { properties?: unknown } | null)?.properties ?? [];
  if (!ref || !Array.isArray(properties) || properties.length > MAX_PROPERTIES) return null;
  const kept: ProfileProperty[] = [];
  for (const property of properties as Record<string, unknown>[]) {
    if (typeof property !== 'object' || property === null || !isText(property.name, 64) || typeof property.value !== 'string') return null;
    if (property.signature !== undefined && typeof property.signature !== 'string') return null;
    kept.push({ name: property.name, value: property.value, ...(property.signature !== undefined && { signature: property.signature }) });
  }
  // No forced action of ours applies to another service's player; theirs are theirs to enforce.
  return { ...ref, properties: kept, profileActions: [] };
}
