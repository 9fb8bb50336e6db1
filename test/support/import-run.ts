// Runs the operator CLI's import as an owner runs it (`npm run cli -- import …`, a process of its own) against a
// target database and DATA_DIR, and reads what it printed and the report it wrote.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { TestDatabase } from './databases.ts';

export interface ImportTarget {
  database: TestDatabase;
  dataDir: string;
}

export function importTarget(database: TestDatabase): ImportTarget {
  return { database, dataDir: mkdtempSync(join(tmpdir(), 'skinservice-import-')) };
}

export async function runImportCli(target: ImportTarget, args: string[], env: Record<string, string> = {}) {
  const { settings } = target.database;
  const report = join(mkdtempSync(join(tmpdir(), 'skinservice-report-')), 'report.json');
  const withReport = args.includes('--report') ? args : [...args, '--report', report];
  const { code, out, err } = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', 'import', ...withReport], {
      env: {
        ...process.env,
        DATA_DIR: target.dataDir,
        DATABASE_URL: settings.kind === 'postgres' ? settings.url : `sqlite:${settings.file}`,
        JWT_SECRET: 'import-test-secret-that-is-long-enough',
        ...env,
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (exitCode) => resolve({ code: exitCode ?? 1, out, err }));
  });
  let parsed: ImportReportFile | null = null;
  try {
    parsed = JSON.parse(readFileSync(withReport[withReport.indexOf('--report') + 1]!, 'utf8')) as ImportReportFile;
  } catch {
    parsed = null;
  }
  return { code, out, err, report: parsed };
}

export interface ImportReportFile {
  source: string;
  dry_run: boolean;
  counts: Record<'accounts' | 'profiles' | 'skins' | 'capes' | 'hardware', { imported: number; already: number; left_out: number }>;
  left_out: { kind: string; source_id: string; name: string; reason: string }[];
}

/** The report's entry for the source row `id` of `kind`, if the import left it out. */
export const leftOutOf = (report: ImportReportFile, kind: string, id: string) =>
  report.left_out.find((entry) => entry.kind === kind && entry.source_id === id);

/** The RGBA pixels of a PNG, decoded by pngjs (not by the service's own reader). */
export function pixelsOf(png: Buffer): { width: number; height: number; data: Buffer } {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height, data: image.data };
}
