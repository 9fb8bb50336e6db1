// Builds the JSON schema of an API record from its TypeScript type, so that the two cannot drift apart.

/** A JSON schema for one field, as Ajv, fast-json-stringify and the OpenAPI document read it. */
export type FieldSchema = Record<string, unknown>;

/** The keys of T that may be left out. */
export type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * The optional fields of T, each named `true`: the type check refuses a field of T that may be left out and is not
 * named here (its schema would require it, and serialising an answer without it would throw: issue 45), and a field
 * named here that T requires (its schema would let an answer leave it out).
 */
export type OptionalFields<T> = { [K in OptionalKeys<T>]-?: true };

/** A record with optional fields names them all (OptionalFields); one without names none. */
type OptionalFieldsArgument<T> = [OptionalKeys<T>] extends [never] ? [] : [optional: OptionalFields<T>];

/**
 * The response schema of the record type T. `properties` must name every field of T and nothing else: a field
 * added to the type and forgotten here fails the type check instead of being silently dropped from every response
 * (a response schema serialises only the fields it lists). `optional` names exactly the fields T may leave out; every
 * other field is required.
 */
export function recordSchema<T>(properties: { [K in keyof T]-?: FieldSchema }, ...[optional]: OptionalFieldsArgument<T>) {
  const optionalNames = Object.keys(optional ?? {});
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optionalNames.includes(name)),
    properties,
  } as const;
}
