// A chat report's salts are signed 64-bit integers written as JSON numbers (wire-shapes-26 §4.1): JSON.parse would
// round them to doubles, and the signature then no longer verifies. The body parser keeps them as their exact digits
// for that one route (Node 22's JSON.parse hands a reviver each number's source text).

/** How the report route's URL ends (with the API root before it). */
export const GAME_REPORT_URL_END = '/minecraftservices/player/report';

type SourceContext = { source?: string };

/** A JSON.parse reviver: a number under the key `salt` becomes its source text. */
export function exactSalts(this: unknown, key: string, value: unknown, context?: SourceContext): unknown {
  return key === 'salt' && typeof value === 'number' && context?.source !== undefined ? context.source : value;
}
