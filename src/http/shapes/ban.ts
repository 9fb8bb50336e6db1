// A ban as the admin API answers it and as its player sees it (contract section 24): types, response schemas and an
// example; the console's bans and the profile's ban card read the same types.
import { BAN_REASONS, BAN_SCOPES, type BanReason, type BanScope } from '../../shared/ban-reasons.ts';
import { recordSchema } from './record-schema.ts';

/** A ban as the admin API answers it; times in Unix seconds. */
export interface BanRecord {
  id: string;
  scope: BanScope;
  reason: BanReason;
  message: string | null;
  created: number;
  /** null: permanent. */
  expires: number | null;
  /** The administrator who banned. */
  by: string;
  /** When it was lifted; null while it was not. */
  lifted: number | null;
  /** Whether it holds now: neither lifted nor past its end. */
  active: boolean;
}

/** A ban that holds, as its player sees it. */
export type PlayerBan = Pick<BanRecord, 'id' | 'scope' | 'reason' | 'message' | 'created' | 'expires'>;

export const BAN_SCHEMA = recordSchema<BanRecord>({
  id: { type: 'string' },
  scope: { type: 'string', enum: [...BAN_SCOPES] },
  reason: { type: 'string', enum: [...BAN_REASONS] },
  message: { type: ['string', 'null'] },
  created: { type: 'integer', description: 'Unix seconds' },
  expires: { type: ['integer', 'null'], description: 'Unix seconds; null: permanent' },
  by: { type: 'string', description: 'the administrator who banned' },
  lifted: { type: ['integer', 'null'], description: 'Unix seconds; null: not lifted' },
  active: { type: 'boolean', description: 'whether it holds now (neither lifted nor past its end)' },
});
export const BAN_EXAMPLE: BanRecord = {
  id: '8f59cdb2-f575-4768-b0e6-2e0b0be19557',
  scope: 'multiplayer',
  reason: 'HATE_SPEECH',
  message: 'Insults in chat',
  created: 1788220800,
  expires: 1790812800,
  by: 'Admin',
  lifted: null,
  active: true,
};
export const PLAYER_BAN_SCHEMA = recordSchema<PlayerBan>({
  id: { type: 'string' },
  scope: { type: 'string', enum: [...BAN_SCOPES] },
  reason: { type: 'string', enum: [...BAN_REASONS] },
  message: { type: ['string', 'null'] },
  created: { type: 'integer', description: 'Unix seconds' },
  expires: { type: ['integer', 'null'], description: 'Unix seconds; null: permanent' },
});
