// Request types from the routes' JSON schemas (issue 30, item 4): a route's body, querystring and params are written
// once, as the `as const` schema that checks them, and the handler's `request.body` is typed from it.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance, FastifyTypeProvider } from 'fastify';

/** The type json-schema-to-ts makes of a request schema, as @fastify/type-provider-json-schema-to-ts calls it. */
type FromRequestSchema<Schema> = (JsonSchemaToTsProvider & { schema: Schema })['validator'];

/**
 * The requests' types from their schemas, by json-schema-to-ts; the replies stay untyped by their schemas (a record's
 * type and schema are checked against each other in src/http/shapes/ instead: an envelope's schema types its `data`
 * as unknown, and would only make every answer restate its own type).
 */
export interface RequestSchemaTypes extends FastifyTypeProvider {
  validator: FromRequestSchema<this['schema']>;
  serializer: unknown;
}

/** The same instance, its routes' requests typed from their schemas. */
export const withSchemaTypes = (app: FastifyInstance) => app.withTypeProvider<RequestSchemaTypes>();

/** An object schema of `properties`, of which `required` are required, with an example: typed as written. */
export const objectSchema = <const Required extends string, const Properties extends Record<string, object>>(
  required: readonly Required[],
  properties: Properties,
  example: object,
) => ({ type: 'object', required, properties, examples: [example] }) as const;
