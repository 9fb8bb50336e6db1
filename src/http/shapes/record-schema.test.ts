// The type check is the test that matters here (npm run typecheck fails when an expected error does not occur);
// the runtime assertions check what the schema requires.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordSchema } from './record-schema.ts';

interface Sample {
  name: string;
  count: number;
  note?: string;
}

describe('recordSchema', () => {
  it('refuses at compile time a schema that misses a field of its type, or names one it does not have', () => {
    // @ts-expect-error `note` is a field of Sample that the schema forgets
    recordSchema<Sample>({ name: { type: 'string' }, count: { type: 'integer' } });
    // @ts-expect-error `extra` is not a field of Sample
    recordSchema<Sample>({ name: { type: 'string' }, count: { type: 'integer' }, note: { type: 'string' }, extra: { type: 'string' } });
    // @ts-expect-error only optional fields may be named optional
    recordSchema<Sample>({ name: { type: 'string' }, count: { type: 'integer' }, note: { type: 'string' } }, ['name']);
  });

  it('requires every field not named optional, and nothing else', () => {
    const schema = recordSchema<Sample>({ name: { type: 'string' }, count: { type: 'integer' }, note: { type: 'string' } }, ['note']);
    assert.deepEqual(schema.required, ['name', 'count']);
    assert.equal(schema.additionalProperties, false);
  });
});
