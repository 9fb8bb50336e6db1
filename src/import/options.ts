// The options of `npm run cli -- import SOURCE …` (contract section 17), written once: the CLI's flags, its usage text
// and the importer's checks all come from IMPORT_OPTIONS (and, for which source takes which, from readers.ts).

/** How the usage text and the flag parser know an option. */
interface OptionSpec {
  /** The flag without its dashes: `salt-column` is `--salt-column`. */
  flag: string;
  type: 'string' | 'boolean';
  /** What the usage calls its value (string options). */
  value?: string;
  /** A few words after it in the usage, in parentheses. */
  help?: string;
}

export const IMPORT_OPTIONS = {
  from: { flag: 'from', type: 'string', value: 'DATABASE_URL' },
  textures: { flag: 'textures', type: 'string', value: 'DIR' },
  dryRun: { flag: 'dry-run', type: 'boolean' },
  report: { flag: 'report', type: 'string', value: 'FILE' },
  passwordMethod: { flag: 'password-method', type: 'string', value: 'METHOD', help: 'its PWD_METHOD, default BCRYPT' },
  salt: { flag: 'salt', type: 'string', value: 'SALT', help: 'its SALT' },
  hash: { flag: 'hash', type: 'string', value: 'ALGORITHM', help: 'its passwordHash, default SHA256' },
  table: { flag: 'table', type: 'string', value: 'NAME', help: 'default authme' },
  saltColumn: { flag: 'salt-column', type: 'string', value: 'NAME', help: 'its mySQLColumnSalt' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof IMPORT_OPTIONS;

/** The options every source takes; the others are each source's own (readers.ts). */
export const COMMON_OPTIONS = ['from', 'dryRun', 'report'] as const satisfies readonly OptionName[];

/** An import as the operator asked for it: the source's name and the options given (absent: not given). */
export type ImportOptions = { source: string; from: string; dryRun: boolean } & {
  [Name in Exclude<OptionName, 'from' | 'dryRun'>]?: string;
};

export class ImportOptionError extends Error {}

/** `--salt-column`, as the usage and the error messages name an option. */
export const flagOf = (name: OptionName) => `--${IMPORT_OPTIONS[name].flag}`;

/** `--salt-column NAME`, or `--dry-run`, as the usage shows an option. */
export function usageOf(name: OptionName, withHelp = true): string {
  const spec: OptionSpec = IMPORT_OPTIONS[name];
  const value = spec.value ? ` ${spec.value}` : '';
  return `${flagOf(name)}${value}${withHelp && spec.help ? ` (${spec.help})` : ''}`;
}

/** The flags for node's parseArgs, as the CLI declares them. */
export const importFlags = () =>
  Object.fromEntries(Object.values(IMPORT_OPTIONS).map((spec) => [spec.flag, { type: spec.type }])) as Record<
    string,
    { type: 'string' | 'boolean' }
  >;

/** The options of `source` out of what parseArgs read (by flag). */
export function importOptionsOf(source: string, values: Record<string, string | boolean | undefined>): ImportOptions {
  const options: Record<string, unknown> = { source, from: '', dryRun: false };
  for (const [name, spec] of Object.entries(IMPORT_OPTIONS)) {
    const value = values[spec.flag];
    if (value !== undefined) options[name] = value;
  }
  return options as ImportOptions;
}

/** Rows read from the source per query: memory stays bounded whatever the source's size. */
export const BATCH_SIZE = 500;
