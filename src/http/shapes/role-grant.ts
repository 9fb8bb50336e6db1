// A user's role grant as the admin API shows it (contract section 3; interface.md 2.8 names its two request fields):
// type, response schema and example. A user has at most one grant: granting again replaces it.
import { recordSchema } from './record-schema.ts';

export interface RoleGrantRecord {
  role_level: number;
  /** Unix seconds when the grant stops counting; null: permanent. */
  expired_at: number | null;
  /** Whether it counts now (not expired). */
  active: boolean;
  /** Unix seconds. */
  granted_at: number;
  /** The username of the owner who granted it; "" when that account is gone or it came from the operator CLI. */
  granted_by: string;
}

export const ROLE_GRANT_SCHEMA = recordSchema<RoleGrantRecord>({
  role_level: { type: 'integer' },
  expired_at: { type: ['integer', 'null'] },
  active: { type: 'boolean' },
  granted_at: { type: 'integer' },
  granted_by: { type: 'string' },
});

export const ROLE_GRANT_EXAMPLE: RoleGrantRecord = {
  role_level: 1,
  expired_at: 1769904000,
  active: true,
  granted_at: 1767225600,
  granted_by: 'Owner',
};
