// The built files with the brotli and gzip copies the build wrote beside them (web/vite.config.ts), and the choice
// among them by a request's Accept-Encoding.
import { existsSync, readFileSync } from 'node:fs';

export type ContentCoding = 'br' | 'gzip';

/** One file of the build: its bytes, and the compressed copies the build made of it. */
export interface BuiltFile {
  identity: Buffer;
  compressed: Partial<Record<ContentCoding, Buffer>>;
}

/** Brotli first: on this app's scripts it saves about a fifth more than gzip. */
const PREFERENCE: { coding: ContentCoding; suffix: string }[] = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
];

/** The suffixes of the compressed copies, which are not files of their own. */
export const COMPRESSED_SUFFIXES = PREFERENCE.map(({ suffix }) => suffix);

export function readBuiltFile(path: string): BuiltFile {
  const compressed: BuiltFile['compressed'] = {};
  for (const { coding, suffix } of PREFERENCE) {
    if (existsSync(path + suffix)) compressed[coding] = readFileSync(path + suffix);
  }
  return { identity: readFileSync(path), compressed };
}

/** The codings an Accept-Encoding header allows: listed with a q above 0, or covered by `*` when not listed. */
function accepted(header: string | undefined): (coding: ContentCoding) => boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, quality === undefined ? 1 : Number(quality.slice(2)) || 0);
  }
  return (coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
}

/** The bytes to send for this Accept-Encoding, and their Content-Encoding (none for the file as it is). */
export function chooseEncoding(file: BuiltFile, acceptEncoding: string | undefined): { body: Buffer; coding: ContentCoding | null } {
  const allows = accepted(acceptEncoding);
  for (const { coding } of PREFERENCE) {
    const body = file.compressed[coding];
    if (body && allows(coding)) return { body, coding };
  }
  return { body: file.identity, coding: null };
}
