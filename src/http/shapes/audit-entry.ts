// An entry of the audit log (contract section 5): type, response schema and example.
import { PLAYER_ID } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

export interface AuditEntry {
  id: number;
  iss: string;
  action: string;
  /** The user the entry is about; 0 when it is about no single user. */
  for: number;
  /** Unix seconds. */
  time: number;
  details: Record<string, unknown> | null;
}

export const AUDIT_ENTRY_SCHEMA = recordSchema<AuditEntry>({
  id: { type: 'integer' },
  iss: { type: 'string' },
  action: { type: 'string' },
  for: { type: 'integer' },
  time: { type: 'integer' },
  details: { type: ['object', 'null'], additionalProperties: true },
});

export const AUDIT_ENTRY_EXAMPLE: AuditEntry = {
  id: 42,
  iss: 'Owner',
  action: 'role.grant',
  for: PLAYER_ID,
  time: 1767225600,
  details: { role_level: 1, expired_at: 1769904000 },
};
