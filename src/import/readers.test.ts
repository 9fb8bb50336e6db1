// The importer's sources and options are said once (READERS, IMPORT_OPTIONS): the CLI's usage, flags and errors
// follow them, so a source or an option cannot be added in one place and missed in another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMON_OPTIONS, IMPORT_OPTIONS, importFlags, importOptionsOf, ImportOptionError, type OptionName } from './options.ts';
import { checkOptions, importUsage, READERS, SOURCE_KINDS } from './readers.ts';

describe('the importer’s list of sources and options', () => {
  it('names every source and each one’s options in the usage', () => {
    const usage = importUsage();
    for (const kind of SOURCE_KINDS) {
      const line = usage.split('\n').find((text) => text.trim().startsWith(`${kind}:`));
      assert.ok(line, `a usage line for ${kind}`);
      for (const name of READERS[kind].options) assert.ok(line.includes(`--${IMPORT_OPTIONS[name].flag}`), `${kind} shows its ${name}`);
    }
    assert.match(usage, /SOURCE: cookiecms, blessing-skin, drasl or authme/);
  });

  it('gives the CLI a flag for every option, and reads each back', () => {
    const flags = importFlags();
    for (const spec of Object.values(IMPORT_OPTIONS)) assert.equal(flags[spec.flag]?.type, spec.type);
    const options = importOptionsOf('authme', { from: 'sqlite:x', 'salt-column': 'salt', 'dry-run': true, unrelated: 'x' });
    assert.deepEqual(options, { source: 'authme', from: 'sqlite:x', saltColumn: 'salt', dryRun: true });
  });

  it('uses every option somewhere', () => {
    const used = new Set<OptionName>([...COMMON_OPTIONS, ...Object.values(READERS).flatMap((entry) => entry.options)]);
    assert.deepEqual([...used].sort(), Object.keys(IMPORT_OPTIONS).sort());
  });

  it('refuses, naming the problem, an unknown or missing source and an option the source does not take', () => {
    const refusal = (source: string, values: Record<string, string>) => {
      try {
        checkOptions(importOptionsOf(source, { from: 'sqlite:x', ...values }));
        return null;
      } catch (error) {
        assert.ok(error instanceof ImportOptionError);
        return error.message;
      }
    };
    assert.match(refusal('', {})!, /^import needs SOURCE: cookiecms, blessing-skin, drasl or authme$/);
    assert.match(refusal('wordpress', {})!, /unknown source "wordpress": one of cookiecms, blessing-skin, drasl or authme/);
    assert.match(refusal('drasl', { 'salt-column': 's' })!, /--salt-column does not apply to drasl/);
    assert.match(refusal('authme', { textures: '/tmp' })!, /--textures does not apply to authme/);
    assert.equal(refusal('blessing-skin', { textures: '/tmp', 'password-method': 'md5' }), null);
  });
});
