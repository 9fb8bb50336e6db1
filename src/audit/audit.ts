// The one service every change calls to leave a trace in the audit log.
import { unixSeconds } from '../clock.ts';
import type { Executor } from '../database/schema.ts';

export interface Actor {
  id: number | null;
  /** Username of the acting user, or `system`. */
  name: string;
}

export const SYSTEM: Actor = { id: null, name: 'system' };

export interface AuditEvent {
  actor: Actor;
  /** Dotted name, such as `user.update` or `auth.register`. */
  action: string;
  /** The user the change is about, when there is one. */
  target?: number | null;
  /** What changed; never a password, hash or code. */
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Executor, nowMs: number, event: AuditEvent) {
  await db
    .insertInto('audit_log')
    .values({
      time: unixSeconds(nowMs),
      iss: event.actor.name,
      actor_id: event.actor.id,
      action: event.action,
      target_id: event.target ?? null,
      details: event.details ? JSON.stringify(event.details) : null,
    })
    .execute();
}
