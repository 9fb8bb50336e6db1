// Several instances of the service on one PostgreSQL database and Redis, started both ways: as apps in this process,
// and as separate processes as `npm start` starts them.
import type { Settings } from '../../src/settings.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { startService, startServiceProcess, type ServiceClient } from './service.ts';
import { startSmtpServer, type Mailbox } from './smtp.ts';

export const redisUrl = process.env.TEST_REDIS_URL;
// CI must not pass by skipping these: it sets REQUIRE_SERVICES=1.
if (process.env.REQUIRE_SERVICES === '1' && !redisUrl) throw new Error('REQUIRE_SERVICES=1 but TEST_REDIS_URL is not set');
export const skipWithoutInstances =
  process.env.TEST_POSTGRES_URL && redisUrl ? false : 'set TEST_POSTGRES_URL and TEST_REDIS_URL to run several instances';

export type StartInstance = (options: { database: TestDatabase; mailbox: Mailbox; settings: Partial<Settings> }) => Promise<ServiceClient>;
export const INSTANCE_WAYS: [string, StartInstance][] = [
  ['apps in one process', (options) => startService('postgres', options)],
  ['separate processes', startServiceProcess],
];

/** Two instances on a fresh PostgreSQL database with Redis (and `settings`), sharing one mailbox; `close` ends it all. */
export async function startTwoInstances(startInstance: StartInstance, settings: Partial<Settings> = {}) {
  const database = await createTestDatabase('postgres');
  const mailbox = await startSmtpServer();
  const options = { database, mailbox, settings: { redisUrl: redisUrl!, ...settings } };
  const a = await startInstance(options);
  const b = await startInstance(options);
  return {
    a,
    b,
    mailbox,
    close: async () => {
      await a.close();
      await b.close();
      await mailbox.close();
      await database.drop();
    },
  };
}
