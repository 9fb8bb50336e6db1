// The reference for the HTTP benchmarks: bare Fastify routes with nothing of ours in the way.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

// 1 KB of bytes served as a PNG from memory: what a cached image costs at the least.
const staticPng = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1016)]);

const app = Fastify({ logger: { level: 'info' } });
app.get('/bare', async () => ({ error: false, msg: 'OK', url: null, data: {} }));
app.get('/static.png', async (_request, reply) => reply.type('image/png').send(staticPng));
await app.listen({ port: 0, host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
