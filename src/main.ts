// Starts the service with the settings from the environment; stops cleanly on SIGTERM and SIGINT.
import { buildApp } from './app.ts';
import { loadSettings, SettingsError } from './settings.ts';

let settings;
try {
  settings = loadSettings();
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(1);
}

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
