// Each request's id: Fastify writes it as reqId on every log line of the request, and installEnvelope returns it
// as X-Request-Id. Behind a trusted proxy (TRUST_PROXY) the id the proxy sent is kept, so that the proxy's access
// log and ours name a request alike; the proxy must set the header itself, overwriting a client's.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Ids that are safe to write into logs and headers as they are. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdGenerator(trustProxy: boolean | string): (request: IncomingMessage) => string {
  if (trustProxy === false) return () => randomUUID();
  return (request) => {
    const incoming = request.headers['x-request-id'];
    return typeof incoming === 'string' && ACCEPTED_ID.test(incoming) ? incoming : randomUUID();
  };
}
