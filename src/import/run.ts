// `npm run cli -- import SOURCE --from URL …` (contract section 17): checks the options, opens the source read-only,
// and writes its accounts batch by batch through ImportWriter; the report is printed, written to --report, and a
// real run is audited once as `import.run`.
import { writeFile } from 'node:fs/promises';
import { recordAudit } from '../audit/audit.ts';
import { type ImportOptions } from './options.ts';
import { readerFor } from './readers.ts';
import { openSource } from './source-db.ts';
import { COUNTED } from './model.ts';
import { emptyReport, ImportWriter, type ImportReport, type ImportTarget } from './writer.ts';

/** The things left out that the audit entry keeps (the report file keeps every one). */
const AUDITED_LEFT_OUT = 100;

export async function runImport(target: ImportTarget, options: ImportOptions, print: (line: string) => void): Promise<ImportReport> {
  const { create } = readerFor(options);
  const source = await openSource(options.from);
  try {
    const reader = create(source, options);
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
        // The console shows the first things left out with their reasons; the report file has them all.
        details: {
          source: sourceName,
          counts: report.counts,
          left_out: report.left_out.slice(0, AUDITED_LEFT_OUT).map(({ kind, name, reason }) => ({ kind, name: name.slice(0, 64), reason })),
          left_out_more: Math.max(0, report.left_out.length - AUDITED_LEFT_OUT),
        },
      });
    }
    for (const kind of COUNTED) {
      const { imported, already, left_out } = report.counts[kind];
      print(
        options.dryRun
          ? `${kind}: ${imported} would be imported, ${already} already here, ${left_out} would be left out`
          : `${kind}: ${imported} imported, ${already} already here, ${left_out} left out`,
      );
    }
    // What was left out and why, as the report has it (names shortened and escaped: they come from the source).
    for (const entry of report.left_out) print(`  ${entry.kind} ${shown(entry.name)} (${shown(entry.source_id)}): ${entry.reason}`);
    if (options.dryRun) print('dry run: nothing was written');
    if (options.report) await writeFile(options.report, `${JSON.stringify(report, null, 2)}\n`);
    return report;
  } finally {
    await source.close();
  }
}

/** A name from the source as a line shows it: quoted with its control characters escaped, at most 64 characters. */
function shown(text: string): string {
  const short = text.length > 64 ? `${text.slice(0, 63)}…` : text;
  return JSON.stringify(short);
}
