import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSettings } from './settings.ts';
import { startLine } from './start-line.ts';

describe('the start line', () => {
  it('names the address to open, the game login, the SQLite file and the outbox folder', () => {
    const line = startLine(parseSettings({ PORT: '0', DATA_DIR: '/srv/skins' }), 41234);
    assert.equal(
      line,
      'open http://localhost:41234/ (the game login players add to their launchers: http://localhost:41234/api/yggdrasil/); ' +
        'database: SQLite file /srv/skins/skinservice.sqlite; ' +
        'mail: written to /srv/skins/outbox as .eml files, not sent (set SMTP_URL to send it)',
    );
  });

  it('names PUBLIC_URL, the PostgreSQL database and host and the SMTP host, never a user name or password', () => {
    const line = startLine(
      parseSettings({
        PUBLIC_URL: 'https://skins.example.org/',
        DATABASE_URL: 'postgres://skins:DBSECRET@db.internal:5433/skins?sslmode=require',
        SMTP_URL: 'smtps://mailer:MAILSECRET@mail.example.org:465?requireTLS=false',
      }),
      8080,
    );
    assert.match(
      line,
      /^open https:\/\/skins\.example\.org\/ \(the game login players add to their launchers: https:\/\/skins\.example\.org\/api\/yggdrasil\/\)/,
    );
    assert.match(
      line,
      /database: PostgreSQL database skins on db\.internal:5433; mail: sent through the SMTP server mail\.example\.org:465$/,
    );
    for (const secret of ['DBSECRET', 'MAILSECRET', 'mailer', 'skins:', 'sslmode', 'requireTLS'])
      assert.ok(!line.includes(secret), `${secret} in ${line}`);
  });
});
