// Presence (contract section 25; research wire-shapes-26 §5.3): what a profile last told the game's friends service
// it is doing, kept 10 minutes after its last update (Mojang's TTL) and seen only by its accepted friends. Every
// instance sees the same presence: in Redis when REDIS_URL is set, else in this process (one instance).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';

import type { PresenceStatus } from './shapes.ts';

/** How long a presence holds without an update. */
export const PRESENCE_TTL_MS = 10 * 60_000;

/** One profile's presence as the game reads it: UUIDs without dashes, lastUpdated an ISO instant without milliseconds. */
export interface PresenceEntry {
  profileId: string;
  pmid: string;
  status: PresenceStatus;
  lastUpdated: string;
}

export interface PresenceStore {
  /** Keeps the profile's presence for PRESENCE_TTL_MS from now. */
  set(profileUuid: string, entry: PresenceEntry): Promise<void>;
  clear(profileUuid: string): Promise<void>;
  /** The live presence of each profile, null where there is none. */
  get(profileUuids: string[]): Promise<(PresenceEntry | null)[]>;
}

/** The game's form of an instant: ISO_INSTANT, seconds. */
export const gameInstant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The per-session id signaling would use (`pmid`, which the game parses as a UUID): derived from the session, so the
 * same token keeps one, and it says nothing about the token itself.
 */
export function presenceSessionId(sessionKind: string, sessionId: number): string {
  const hex = createHash('sha256').update(`presence:${sessionKind}:${sessionId}`).digest('hex');
  return `${hex.slice(0, 12)}4${hex.slice(13, 16)}${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 32)}`;
}

/** One instance's presence, kept in memory; entries past their time are dropped as they are met. */
export class MemoryPresenceStore implements PresenceStore {
  private readonly entries = new Map<string, { entry: PresenceEntry; until: number }>();
  constructor(private readonly clock: Clock) {}

  async set(profileUuid: string, entry: PresenceEntry): Promise<void> {
    const now = this.clock.now();
    // Sweep now and then, so that profiles that never come back do not stay.
    if (this.entries.size > 0 && this.entries.size % 256 === 0) {
      for (const [uuid, kept] of this.entries) if (kept.until <= now) this.entries.delete(uuid);
    }
    this.entries.set(profileUuid, { entry, until: now + PRESENCE_TTL_MS });
  }

  async clear(profileUuid: string): Promise<void> {
    this.entries.delete(profileUuid);
  }

  async get(profileUuids: string[]): Promise<(PresenceEntry | null)[]> {
    const now = this.clock.now();
    return profileUuids.map((uuid) => {
      const kept = this.entries.get(uuid);
      if (!kept) return null;
      if (kept.until <= now) {
        this.entries.delete(uuid);
        return null;
      }
      return kept.entry;
    });
  }
}

/** Presence in Redis, under this deployment's name, each entry expiring by itself (PX). */
export class RedisPresenceStore implements PresenceStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async set(profileUuid: string, entry: PresenceEntry): Promise<void> {
    await this.redis.set(this.prefix + profileUuid, JSON.stringify(entry), 'PX', PRESENCE_TTL_MS);
  }

  async clear(profileUuid: string): Promise<void> {
    await this.redis.del(this.prefix + profileUuid);
  }

  async get(profileUuids: string[]): Promise<(PresenceEntry | null)[]> {
    if (profileUuids.length === 0) return [];
    const values = await this.redis.mget(profileUuids.map((uuid) => this.prefix + uuid));
    return values.map((value) => (value === null ? null : (JSON.parse(value) as PresenceEntry)));
  }
}
