import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSettings } from './settings.ts';
import { startLine } from './start-line.ts';

describe('the start line', () => {
  it('names the address to open, the game login, the SQLite file and the outbox folder', () => {
    const line = startLine(parseSettings({ PORT: '0', DATA_DIR: '/srv/skins' }), 41234, 'exists');
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
      'exists',
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

  it('says how to make the first owner while there is none', () => {
    const line = startLine(parseSettings({ PORT: '0', DATA_DIR: '/srv/skins' }), 41234, 'none');
    assert.match(
      line,
      /; no owner yet: set OWNER_USERNAME, OWNER_MAIL and OWNER_PASSWORD in \.env and start again \(an account with that mail becomes the owner\), or run npm run cli -- set-perms NAME 3$/,
    );
  });

  it('says OWNER_PASSWORD may be removed from .env once the owner of OWNER_* exists', () => {
    const line = startLine(parseSettings({ PORT: '0', DATA_DIR: '/srv/skins' }), 41234, 'from-settings');
    assert.match(line, /; the owner account exists: OWNER_PASSWORD may now be removed from \.env$/);
  });
});
