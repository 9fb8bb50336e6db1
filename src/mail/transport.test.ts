// The SMTP transport never hands the SMTP password to a server over a connection in clear: with credentials in an
// smtp:// URL it insists on STARTTLS, unless the URL itself says requireTLS=false.
import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { createMailTransport } from './transport.ts';

/** A server that offers no STARTTLS and takes AUTH over the plain connection, as a stripping attacker in the middle would. */
async function plainTextServer() {
  const credentials: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      credentials.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume().on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as { port: number }).port, credentials };
}

const send = async (smtpUrl: string) => {
  const transport = createMailTransport({ smtpUrl, from: 'skins@example.org', outboxDir: '', log: {} as FastifyBaseLogger });
  try {
    await transport.send({ id: 1, to: 'steve@example.org', subject: 'Code', text: 'code', html: '<p>code</p>' });
  } finally {
    transport.close();
  }
};

it('refuses to send credentials of an smtp:// URL without STARTTLS', async () => {
  const server = await plainTextServer();
  await assert.rejects(send(`smtp://mailer:hunter2@127.0.0.1:${server.port}`));
  assert.deepEqual(server.credentials, [], 'the password never crossed the plain connection');
});

it('sends them in clear only when the URL says requireTLS=false', async () => {
  const server = await plainTextServer();
  await send(`smtp://mailer:hunter2@127.0.0.1:${server.port}?requireTLS=false`);
  assert.deepEqual(server.credentials, ['mailer:hunter2']);
});

it('sends without credentials over a plain connection, as before (a relay on the same machine)', async () => {
  const server = await plainTextServer();
  await send(`smtp://127.0.0.1:${server.port}`);
  assert.deepEqual(server.credentials, []);
});
