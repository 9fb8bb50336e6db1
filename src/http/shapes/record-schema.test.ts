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

interface AllRequired {
  name: string;
}

const fields = { name: { type: 'string' }, count: { type: 'integer' }, note: { type: 'string' } };

describe('recordSchema', () => {
  it('refuses at compile time a schema that misses a field of its type, or names one it does not have', () => {
    // @ts-expect-error `note` is a field of Sample that the schema forgets
    recordSchema<Sample>({ name: { type: 'string' }, count: { type: 'integer' } }, { note: true });
    // @ts-expect-error `extra` is not a field of Sample
    recordSchema<Sample>({ ...fields, extra: { type: 'string' } }, { note: true });
  });

  it('refuses at compile time a schema whose optional fields are not exactly the type’s (issue 45)', () => {
    // @ts-expect-error `note` may be left out of a Sample, and a schema requiring it fails to serialise one without it
    recordSchema<Sample>(fields, {});
    // @ts-expect-error the same, with the list left out altogether
    recordSchema<Sample>(fields);
    // @ts-expect-error `name` is required by the type: the schema may not let an answer leave it out
    recordSchema<Sample>(fields, { note: true, name: true });
    // @ts-expect-error a type without optional fields takes no list
    recordSchema<AllRequired>({ name: { type: 'string' } }, {});
  });

  it('requires every field not named optional, and nothing else', () => {
    const schema = recordSchema<Sample>(fields, { note: true });
    assert.deepEqual(schema.required, ['name', 'count']);
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(recordSchema<AllRequired>({ name: { type: 'string' } }).required, ['name']);
  });
});
