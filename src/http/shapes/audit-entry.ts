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
  /** Beyond interface.md: the current username of the user the entry is about; "" when none or deleted. */
  for_name?: string;
  /** Beyond interface.md: the id of the acting user; null for `system`, the operator CLI or a deleted account. */
  iss_id?: number | null;
}

export const AUDIT_ENTRY_SCHEMA = recordSchema<AuditEntry>(
  {
    id: { type: 'integer' },
    iss: { type: 'string' },
    action: { type: 'string' },
    for: { type: 'integer' },
    time: { type: 'integer' },
    details: { type: ['object', 'null'], additionalProperties: true },
    for_name: { type: 'string' },
    iss_id: { type: ['integer', 'null'] },
  },
  { for_name: true, iss_id: true },
);

export const AUDIT_ENTRY_EXAMPLE: AuditEntry = {
  id: 42,
  iss: 'Owner',
  action: 'role.grant',
  for: PLAYER_ID,
  time: 1767225600,
  details: { role_level: 1, expired_at: 1769904000 },
  for_name: 'Steve',
  iss_id: 1,
};
