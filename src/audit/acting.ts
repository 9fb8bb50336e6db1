// Who does this: the one acting party every service method that takes one receives, always as its first argument. A
// signed-in person (the HTTP edge's Caller extends this with the session it came through), the operator CLI, or the
// service itself acting for a component (the LaunchServer, the importer). Its audit name is what the audit log writes.
import { LEVELS } from '../shared/levels.ts';
import type { AuditActor } from './audit.ts';

export interface Acting {
  /** The acting account; null for the operator CLI and the service itself. */
  accountId: number | null;
  /** The effective level: perms raised by an unexpired role grant; -1 when banned. The operator: owner. */
  level: number;
  /** The stored perms, without any grant (appointing, demoting, banning and secrets go by it). */
  permanentLevel: number;
  /** How the audit log names the acting party. */
  actor: AuditActor;
  /** The operator CLI: above every level, also an owner's. */
  operator: boolean;
}

/** An account acting for itself (its own wardrobe, its own sessions): an Acting that is an account. */
export type ActingAccount = Acting & { accountId: number };

/** A signed-in account at its effective `level`. */
export const actingOf = (user: { id: number; username: string | null; mail: string; perms: number }, level: number): ActingAccount => ({
  accountId: user.id,
  level,
  permanentLevel: user.perms,
  actor: { id: user.id, name: user.username ?? user.mail },
  operator: false,
});

/** The operator at the command line (src/admin/cli.ts): owner, audited as `cli`. */
export const OPERATOR: Acting = {
  accountId: null,
  level: LEVELS.owner,
  permanentLevel: LEVELS.owner,
  actor: { id: null, name: 'cli' },
  operator: true,
};

/** The service itself, acting for a component audited under `name` (`system`, `launchserver`, `import`). */
export const serviceActing = (name: string): Acting => ({
  accountId: null,
  level: LEVELS.owner,
  permanentLevel: LEVELS.owner,
  actor: { id: null, name },
  operator: false,
});
