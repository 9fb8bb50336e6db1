// The console's first view (issue 14, item 9): the figures of the whole site at a glance.
import { AUDIT_ENTRY_EXAMPLE, AUDIT_ENTRY_SCHEMA, type AuditEntry } from './audit-entry.ts';
import { recordSchema } from './record-schema.ts';
import { MODE_SCHEMA, type RegistrationModeName } from './registration.ts';

/** An audit entry with the names the console shows (for_name and iss_id always there). */
export type DashboardAuditEntry = Required<AuditEntry>;

export interface Dashboard {
  accounts: { total: number; new_this_week: number; unverified: number; banned: number };
  /** Skin and cape records, and the bytes of the distinct texture files they use. */
  skins: { count: number; bytes: number };
  capes: { count: number; bytes: number };
  /** Mails waiting to be sent (retries included) and mails given up on. */
  mail: { queued: number; failed: number };
  /** A mail to all users still being queued, if any. */
  broadcast: { id: number; subject: string; started_at: number; queued: number } | null;
  registration: RegistrationModeName;
  /** The 10 newest audit entries. */
  audit: DashboardAuditEntry[];
}

const count = { type: 'integer', minimum: 0 } as const;
const figures = <T>(names: (keyof T)[]) => ({
  type: 'object',
  additionalProperties: false,
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, count])),
});

export const DASHBOARD_AUDIT_ENTRY_SCHEMA = recordSchema<DashboardAuditEntry>(AUDIT_ENTRY_SCHEMA.properties);

export const DASHBOARD_SCHEMA = recordSchema<Dashboard>({
  accounts: figures<Dashboard['accounts']>(['total', 'new_this_week', 'unverified', 'banned']),
  skins: figures<Dashboard['skins']>(['count', 'bytes']),
  capes: figures<Dashboard['capes']>(['count', 'bytes']),
  mail: figures<Dashboard['mail']>(['queued', 'failed']),
  broadcast: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['id', 'subject', 'started_at', 'queued'],
    properties: { id: { type: 'integer' }, subject: { type: 'string' }, started_at: { type: 'integer' }, queued: count },
  },
  registration: MODE_SCHEMA,
  audit: { type: 'array', items: DASHBOARD_AUDIT_ENTRY_SCHEMA },
});

export const DASHBOARD_EXAMPLE: Dashboard = {
  accounts: { total: 1250, new_this_week: 34, unverified: 12, banned: 3 },
  skins: { count: 2010, bytes: 5_382_144 },
  capes: { count: 8, bytes: 14_336 },
  mail: { queued: 2, failed: 0 },
  broadcast: null,
  registration: 'open',
  audit: [
    {
      id: AUDIT_ENTRY_EXAMPLE.id,
      iss: AUDIT_ENTRY_EXAMPLE.iss,
      iss_id: 1,
      action: AUDIT_ENTRY_EXAMPLE.action,
      for: AUDIT_ENTRY_EXAMPLE.for,
      for_name: 'Steve',
      time: AUDIT_ENTRY_EXAMPLE.time,
      details: AUDIT_ENTRY_EXAMPLE.details,
    },
  ],
};
