// The reference for the HTTP benchmarks: a bare Fastify route with a small JSON answer, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: { level: 'info' } });
app.get('/bare', async () => ({ error: false, msg: 'OK', url: null, data: {} }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
