// A skin library entry as the library API answers it (contract section 19): type, response schema and example; the
// library page reads the same type.
import { BASE, PLAYER_UUID, SKIN_DIGEST } from './example-story.ts';
import { recordSchema } from './record-schema.ts';

export type EntryKind = 'skin' | 'cape';
export type EntrySource = 'original' | 'derivative' | 'repost';

export interface LibraryEntry {
  id: number;
  kind: EntryKind;
  model: 'classic' | 'slim' | null;
  name: string;
  description: string;
  source: EntrySource;
  source_url: string | null;
  digest: string;
  url: string;
  owner: { uuid: string; name: string };
  saves: number;
  /** Unix seconds. */
  created: number;
  state: 'public' | 'pending' | 'refused';
}

export const LIBRARY_ENTRY_SCHEMA = recordSchema<LibraryEntry>({
  id: { type: 'integer' },
  kind: { type: 'string', enum: ['skin', 'cape'] },
  model: { type: ['string', 'null'], enum: ['classic', 'slim', null] },
  name: { type: 'string' },
  description: { type: 'string' },
  source: { type: 'string', enum: ['original', 'derivative', 'repost'] },
  source_url: { type: ['string', 'null'] },
  digest: { type: 'string' },
  url: { type: 'string' },
  owner: recordSchema<LibraryEntry['owner']>({ uuid: { type: 'string' }, name: { type: 'string' } }),
  saves: { type: 'integer' },
  created: { type: 'integer', description: 'Unix seconds' },
  state: { type: 'string', enum: ['public', 'pending', 'refused'] },
});

export const LIBRARY_ENTRY_EXAMPLE: LibraryEntry = {
  id: 12,
  kind: 'skin',
  model: 'slim',
  name: 'Autumn hoodie',
  description: 'Drawn for the autumn event',
  source: 'original',
  source_url: null,
  digest: SKIN_DIGEST,
  url: `${BASE}/textures/${SKIN_DIGEST}`,
  owner: { uuid: PLAYER_UUID, name: 'Steve' },
  saves: 3,
  created: 1_767_225_600,
  state: 'public',
};
