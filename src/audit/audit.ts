// The one service every change calls to leave a trace in the audit log.
import { unixSeconds } from '../clock.ts';
import type { Executor, UserRow } from '../database/schema.ts';
import type { AuditAction } from '../shared/audit-actions.ts';

/** How the audit log names whoever acts (an Acting's `actor`, src/audit/acting.ts). */
export interface AuditActor {
  id: number | null;
  /** Username of the acting user, or `system`. */
  name: string;
}

export const SYSTEM: AuditActor = { id: null, name: 'system' };

/** A user as the audit log names them: the username, or the mail address before registration step 3. */
export const actorOf = (user: Pick<UserRow, 'id' | 'username' | 'mail'>): AuditActor => ({ id: user.id, name: user.username ?? user.mail });

export interface AuditEvent {
  actor: AuditActor;
  /** Dotted name, such as `user.update` or `auth.register`: one of AUDIT_ACTIONS (src/shared/audit-actions.ts). */
  action: AuditAction;
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
