// Starts the service with the settings from the environment; stops cleanly on SIGTERM and SIGINT.
// WORKERS=n: this process becomes the primary of n worker processes that share the port (node:cluster).
import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { migrateToLatest, openDatabase } from './database/connect.ts';
import { relayMetricsRequests } from './metrics/cluster.ts';
import { loadSettings, SettingsError, type Settings } from './settings.ts';

let settings;
try {
  settings = loadSettings();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}

if (settings.workers > 1 && cluster.isPrimary) await superviseWorkers(settings);
else await serve(settings);

async function serve(settings: Settings) {
  const app = await buildApp(settings);
  await app.listen({ port: settings.port, host: settings.host });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'stopping: finishing requests in flight');
      setTimeout(() => {
        app.log.error('requests still in flight after 30 s: stopping anyway');
        process.exit(1);
      }, 30_000).unref();
      // close() stops accepting connections, waits for requests in flight, then runs the onClose hooks (database, mail).
      app.close().then(
        () => process.exit(0),
        (error) => {
          app.log.error({ err: error }, 'unclean stop');
          process.exit(1);
        },
      );
    });
  }
}

/** Migrates once, forks the workers, replaces one that dies, and passes a stop signal on to all of them. */
async function superviseWorkers(settings: Settings) {
  // Before any worker starts: on SQLite, processes migrating the same file at once would not wait for each other.
  const db = openDatabase(settings.database);
  await migrateToLatest(db);
  await db.destroy();

  relayMetricsRequests();
  let stopping = false;
  let uncleanExits = 0;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code !== 0) uncleanExits += 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(uncleanExits === 0 ? 0 : 1);
      return;
    }
    console.error(`worker ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another in a second`);
    // The pause keeps a worker that cannot start (database down) from being restarted in a tight loop.
    setTimeout(() => cluster.fork(), 1_000);
  });
  for (let started = 0; started < settings.workers; started += 1) cluster.fork();

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stopping = true;
      // Each worker finishes its requests in flight and stops on its own (see serve()).
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    });
  }
}
