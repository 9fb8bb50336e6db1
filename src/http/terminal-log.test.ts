import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readableLine, terminalLog } from './terminal-log.ts';

const time = Date.UTC(2026, 10, 27, 9, 5, 7, 123);
const json = (entry: Record<string, unknown>) => JSON.stringify({ level: 30, time, pid: 4242, hostname: 'box', ...entry });

describe('the log on a terminal', () => {
  it('shows a request as two short lines: what came in, and how it was answered', () => {
    const reqId = '3f2a9c1e-0000-4000-8000-000000000001';
    assert.equal(
      readableLine(
        json({
          reqId,
          req: { method: 'GET', url: '/reset/confirm?code=[redacted]', host: 'x', remoteAddress: '127.0.0.1' },
          msg: 'incoming request',
        }),
      ),
      '09:05:07.123 INFO  3f2a9c1e GET /reset/confirm?code=[redacted] from 127.0.0.1',
    );
    assert.equal(
      readableLine(json({ reqId, res: { statusCode: 404 }, responseTime: 2.345, msg: 'request completed' })),
      '09:05:07.123 INFO  3f2a9c1e → 404 in 2.3 ms',
    );
  });

  it('shows a message with its fields, and an error with its stack, leaving out pid and hostname', () => {
    const line = readableLine(
      json({
        level: 40,
        mailId: 3,
        subject: 'Your code',
        msg: 'mail not sent; will retry',
        err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here' },
      }),
    );
    assert.equal(line, '09:05:07.123 WARN  mail not sent; will retry mailId=3 subject="Your code"\n    Error: boom\n        at here');
  });

  it('passes a line that is not JSON as it is, and colours the level only for a terminal that has colours', () => {
    assert.equal(readableLine('plain text'), 'plain text');
    const written: string[] = [];
    terminalLog({ write: (text) => written.push(text), hasColors: () => true }).write(`${json({ level: 50, msg: 'bad' })}\n`);
    assert.equal(written.length, 1);
    assert.match(written[0]!, /\u001b\[31mERROR\u001b\[39m bad\n$/);
  });
});
