// The one service every change calls to leave a trace in the audit log.
import { unixSeconds } from '../clock.ts';
import type { Executor, UserRow } from '../database/schema.ts';

export interface Actor {
  id: number | null;
  /** Username of the acting user, or `system`. */
  name: string;
}

export const SYSTEM: Actor = { id: null, name: 'system' };

/** A user as the audit log names them: the username, or the mail address before registration step 3. */
export const actorOf = (user: Pick<UserRow, 'id' | 'username' | 'mail'>): Actor => ({ id: user.id, name: user.username ?? user.mail });

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
