// Every source the importer reads, once: its reader, the options it takes beside the common ones, and its own check
// of their values. The CLI's usage text, its errors and checkOptions are derived from this list; a new source is a
// reader in sources/ and a line here.
import type { SourceReader } from './model.ts';
import { COMMON_OPTIONS, flagOf, ImportOptionError, usageOf, type ImportOptions, type OptionName } from './options.ts';
import type { SourceDb } from './source-db.ts';
import { authMeOptions, authMeReader } from './sources/authme.ts';
import { blessingSkinReader, checkBlessingSkinOptions } from './sources/blessing-skin.ts';
import { cookieCmsReader } from './sources/cookiecms.ts';
import { draslReader } from './sources/drasl.ts';

interface ReaderEntry {
  create: (source: SourceDb, options: ImportOptions) => SourceReader;
  /** The options this source takes beside COMMON_OPTIONS. */
  options: OptionName[];
  /** Checks the values of its options before anything is opened (throws ImportOptionError). */
  check?: (options: ImportOptions) => unknown;
}

export const READERS = {
  cookiecms: { create: cookieCmsReader, options: ['textures'] },
  'blessing-skin': { create: blessingSkinReader, options: ['textures', 'passwordMethod', 'salt'], check: checkBlessingSkinOptions },
  drasl: { create: draslReader, options: ['textures'] },
  authme: { create: authMeReader, options: ['hash', 'table', 'saltColumn'], check: authMeOptions },
} as const satisfies Record<string, ReaderEntry>;

export type SourceKind = keyof typeof READERS;

export const SOURCE_KINDS = Object.keys(READERS) as SourceKind[];

const isSourceKind = (name: string): name is SourceKind => Object.hasOwn(READERS, name);

/** "cookiecms, blessing-skin, drasl or authme" */
export const sourceList = () => `${SOURCE_KINDS.slice(0, -1).join(', ')} or ${SOURCE_KINDS.at(-1)}`;

/** The reader of `options.source`, once its options are checked: an unknown source or an option it does not take is refused. */
export function readerFor(options: ImportOptions): ReaderEntry {
  if (!options.source) throw new ImportOptionError(`import needs SOURCE: ${sourceList()}`);
  if (!isSourceKind(options.source)) throw new ImportOptionError(`unknown source "${options.source}": one of ${sourceList()}`);
  if (!options.from) throw new ImportOptionError(`${flagOf('from')} is needed: the source database URL`);
  const entry: ReaderEntry = READERS[options.source];
  for (const name of Object.keys(options) as (keyof ImportOptions)[]) {
    if (name === 'source' || (COMMON_OPTIONS as readonly string[]).includes(name) || options[name] === undefined) continue;
    if (!entry.options.includes(name)) throw new ImportOptionError(`${flagOf(name)} does not apply to ${options.source}`);
  }
  entry.check?.(options);
  return entry;
}

/** Refuses an unknown source or an option that source does not take, before anything is opened. */
export function checkOptions(options: ImportOptions): void {
  readerFor(options);
}

/** The import's lines of the CLI's usage text. */
export function importUsage(): string {
  const common = COMMON_OPTIONS.filter((name) => name !== 'from').map((name) => `[${usageOf(name, false)}]`);
  return [
    `  import SOURCE ${usageOf('from')} ${common.join(' ')} [options of SOURCE]`,
    `      brings another service's accounts over (docs/migrating.md); SOURCE: ${sourceList()};`,
    '      DATABASE_URL: mysql://user:password@host:port/database, postgres://… or sqlite:PATH (only read).',
    ...SOURCE_KINDS.map((kind) => `      ${kind}: ${READERS[kind].options.map((name) => usageOf(name)).join(' ')}`),
  ].join('\n');
}
