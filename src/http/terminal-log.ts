// The log as a person at a terminal reads it: one short line per entry instead of pino's JSON. main.ts uses it when
// standard output is a terminal; anywhere else (a file, a pipe, journald, a container's log) the lines stay JSON, one
// object a line, for programs to read. It shows only what the JSON line holds (the request serializer has already
// redacted the URL), so nothing reaches the terminal that the JSON would not carry.
import { format } from 'node:util';

const LEVELS: Record<number, { name: string; colour: number }> = {
  10: { name: 'TRACE', colour: 90 },
  20: { name: 'DEBUG', colour: 36 },
  30: { name: 'INFO', colour: 32 },
  40: { name: 'WARN', colour: 33 },
  50: { name: 'ERROR', colour: 31 },
  60: { name: 'FATAL', colour: 35 },
};

/** pino's own fields and the ones a line shows in its own place. */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err', 'v']);

interface Output {
  write(text: string): unknown;
  hasColors?(): boolean;
}

/** A pino destination writing each entry to `output` as a readable line (with colours when the terminal has them). */
export function terminalLog(output: Output): { write(line: string): void } {
  const colours = output.hasColors?.() ?? false;
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) {
        if (line.trim() !== '') output.write(`${readableLine(line, colours)}\n`);
      }
    },
  };
}

/** One JSON log line as text: time, level, the request's id (its first 8 characters), the message, other fields. */
export function readableLine(line: string, colours = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null) return line;
  const paint = (colour: number, text: string) => (colours ? `\u001b[${colour}m${text}\u001b[39m` : text);
  const level = LEVELS[entry.level as number] ?? { name: String(entry.level ?? ''), colour: 39 };
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const parts = time === '' ? [] : [paint(90, time)];
  parts.push(paint(level.colour, level.name.padEnd(5)));
  if (typeof entry.reqId === 'string') parts.push(paint(90, entry.reqId.slice(0, 8)));

  const req = entry.req as { method?: string; url?: string; remoteAddress?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (entry.msg === 'incoming request' && req) {
    parts.push(`${req.method} ${req.url}${req.remoteAddress ? paint(90, ` from ${req.remoteAddress}`) : ''}`);
  } else if (entry.msg === 'request completed' && res) {
    const ms = typeof entry.responseTime === 'number' ? ` in ${entry.responseTime.toFixed(1)} ms` : '';
    const status = res.statusCode ?? 0;
    parts.push(`${paint(status >= 500 ? 31 : status >= 400 ? 33 : 39, `→ ${status}`)}${ms}`);
  } else {
    if (entry.msg !== undefined) parts.push(String(entry.msg));
    if (req?.method) parts.push(paint(90, `${req.method} ${req.url}`));
    if (res?.statusCode) parts.push(paint(90, `status=${res.statusCode}`));
  }

  const fields = Object.entries(entry)
    .filter(([name]) => !SHOWN_APART.has(name))
    .map(([name, value]) => `${name}=${typeof value === 'string' && !/\s/.test(value) ? value : format('%j', value)}`);
  if (fields.length > 0) parts.push(paint(90, fields.join(' ')));

  let text = parts.join(' ');
  const err = entry.err as { stack?: string; message?: string; type?: string } | undefined;
  if (err) text += `\n${(err.stack ?? `${err.type ?? 'Error'}: ${err.message ?? ''}`).replace(/^/gm, '    ')}`;
  return text;
}
