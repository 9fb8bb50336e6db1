// Builds the JSON schema of an API record from its TypeScript type, so that the two cannot drift apart.

/** A JSON schema for one field, as Ajv, fast-json-stringify and the OpenAPI document read it. */
export type FieldSchema = Record<string, unknown>;

/** The keys of T that may be left out. */
export type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * The response schema of the record type T. `properties` must name every field of T and nothing else: a field
 * added to the type and forgotten here fails the type check instead of being silently dropped from every response
 * (a response schema serialises only the fields it lists). Every field not named in `optional` is required.
 */
export function recordSchema<T>(properties: { [K in keyof T]-?: FieldSchema }, optional: readonly OptionalKeys<T>[] = []) {
  const optionalNames: readonly PropertyKey[] = optional;
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optionalNames.includes(name)),
    properties,
  } as const;
}
