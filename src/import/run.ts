// `npm run cli -- import SOURCE --from URL …` (contract section 17): checks the options, opens the source read-only,
// and writes its accounts batch by batch through ImportWriter; the report is printed, written to --report, and a
// real run is audited once as `import.run`.
import { writeFile } from 'node:fs/promises';
import { recordAudit } from '../audit/audit.ts';
import type { SourceReader } from './model.ts';
import { openSource, type SourceDb } from './source-db.ts';
import { authMeOptions, authMeReader } from './sources/authme.ts';
import { blessingSkinReader, checkBlessingSkinOptions } from './sources/blessing-skin.ts';
import { cookieCmsReader } from './sources/cookiecms.ts';
import { draslReader } from './sources/drasl.ts';
import { COUNTED, emptyReport, ImportWriter, type ImportReport, type ImportTarget } from './writer.ts';

export const SOURCE_KINDS = ['cookiecms', 'blessing-skin', 'drasl', 'authme'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** The options of every source; which apply to which is checked by `checkOptions`. */
export interface ImportOptions {
  source: SourceKind;
  from: string;
  /** The source's texture folder. */
  textures?: string;
  dryRun: boolean;
  report?: string;
  passwordMethod?: string;
  salt?: string;
  hash?: string;
  table?: string;
  saltColumn?: string;
}

export class ImportOptionError extends Error {}

/** Rows read from the source per query: memory stays bounded whatever the source's size. */
export const BATCH_SIZE = 500;

type ReaderFactory = (source: SourceDb, options: ImportOptions) => SourceReader;

/** Each source's reader, the options it takes, and its own check of their values (run before anything is opened). */
const READERS: Record<
  SourceKind,
  { create: ReaderFactory; options: (keyof ImportOptions)[]; check?: (options: ImportOptions) => unknown }
> = {
  cookiecms: { create: cookieCmsReader, options: ['textures'] },
  'blessing-skin': { create: blessingSkinReader, options: ['textures', 'passwordMethod', 'salt'], check: checkBlessingSkinOptions },
  drasl: { create: draslReader, options: ['textures'] },
  authme: { create: authMeReader, options: ['hash', 'table', 'saltColumn'], check: authMeOptions },
};

const OPTION_FLAGS: Partial<Record<keyof ImportOptions, string>> = {
  textures: '--textures',
  passwordMethod: '--password-method',
  salt: '--salt',
  hash: '--hash',
  table: '--table',
  saltColumn: '--salt-column',
};

/** Refuses an unknown source or an option that source does not take, before anything is opened. */
export function checkOptions(options: ImportOptions): void {
  if (!(SOURCE_KINDS as readonly string[]).includes(options.source))
    throw new ImportOptionError(`unknown source "${options.source}": one of ${SOURCE_KINDS.join(', ')}`);
  if (!options.from) throw new ImportOptionError('--from is needed: the source database URL');
  const allowed = READERS[options.source].options;
  for (const [option, flag] of Object.entries(OPTION_FLAGS) as [keyof ImportOptions, string][]) {
    if (options[option] !== undefined && !allowed.includes(option))
      throw new ImportOptionError(`${flag} does not apply to ${options.source}`);
  }
  READERS[options.source].check?.(options);
}

export async function runImport(target: ImportTarget, options: ImportOptions, print: (line: string) => void): Promise<ImportReport> {
  checkOptions(options);
  const source = await openSource(options.from);
  try {
    const reader = READERS[options.source].create(source, options);
    const sourceName = `${options.source}:${source.name}`;
    const report = emptyReport(sourceName, options.dryRun);
    const writer = new ImportWriter({ ...target, source: sourceName, dryRun: options.dryRun, capes: await reader.capes(), report });
    for await (const batch of reader.accounts()) {
      for (const entry of batch.leftOut) {
        report.left_out.push(entry);
        if (entry.kind === 'account') report.counts.accounts.left_out += 1;
      }
      for (const account of batch.accounts) await writer.write(account);
    }
    if (!options.dryRun) {
      await recordAudit(target.db, target.clock.now(), {
        actor: target.actor,
        action: 'import.run',
        details: { source: sourceName, counts: report.counts },
      });
    }
    for (const kind of COUNTED) {
      const { imported, already, left_out } = report.counts[kind];
      print(`${kind}: ${imported} imported, ${already} already here, ${left_out} left out`);
    }
    if (options.dryRun) print('dry run: nothing was written');
    if (options.report) await writeFile(options.report, `${JSON.stringify(report, null, 2)}\n`);
    return report;
  } finally {
    await source.close();
  }
}
