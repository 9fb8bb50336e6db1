// Starts the service with the settings from the environment; stops on SIGTERM and SIGINT with exit code 0 within a
// few seconds, whatever it is doing. WORKERS=n: this process becomes the primary of n worker processes that share the
// port (node:cluster).
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Settings } from './settings.ts';

/** How long requests in flight get after a stop signal; connections still open then (a stuck client) are cut. */
const REQUEST_GRACE_MS = 2_000;
/** Past this something unforeseen holds the stop: exit 1, still before a container manager's SIGKILL (10 s). */
const STOP_LIMIT_MS = 8_000;
/** Exit code of a worker refused by a setting (port in use): the primary stops instead of starting another. */
const START_REFUSED = 78; // EX_CONFIG of sysexits.h
/** How long a stop signal that comes during the start lets the start finish (then it stops as usual). */
const START_GRACE_MS = 4_000;

/** The oldest Node.js line the service runs on (contract section 22; better-sqlite3 13 crashes on Node 20). */
const OLDEST_NODE = 22;
if (Number(process.versions.node.split('.')[0]) < OLDEST_NODE) {
  console.error(
    `This service needs Node.js ${OLDEST_NODE} or 24; this is Node.js ${process.versions.node}. Install one from your ` +
      `distribution's packages if it has ${OLDEST_NODE} or newer, with nvm (\`nvm install 24\`), or from the npm ` +
      `registry (\`npm install --global node@24\`), then run \`npm install\` and \`npm start\` again.`,
  );
  process.exit(1);
}

/**
 * What the first SIGTERM or SIGINT does. Taken before the service's modules load (seconds through tsx; a signal before
 * that is src/stop-while-loading.mjs's): in a container the service is PID 1, for which the kernel has no default
 * action, so a signal with no handler would be lost and the container killed after 10 s. Until serve() or
 * superviseWorkers() replaces it nothing is open, so it just exits.
 */
let onStop: (signal: NodeJS.Signals) => void = () => process.exit(0);
onStopSignal((signal) => onStop(signal));

const { buildApp } = await import('./app.ts');
const { migrateToLatest, openDatabase } = await import('./database/connect.ts');
const { relayMetricsRequests } = await import('./metrics/cluster.ts');
const { terminalLog } = await import('./http/terminal-log.ts');
const { loadSettings, SettingsError, settingsWarnings } = await import('./settings.ts');
const { startLine } = await import('./start-line.ts');
// Loading holds the event loop, so a signal that came meanwhile waits: it is taken here, before anything is opened.
await new Promise((resolve) => setImmediate(resolve));

let settings;
try {
  settings = loadSettings();
} catch (error) {
  refuseStart(error);
}

if (settings.workers > 1 && cluster.isPrimary) await superviseWorkers(settings);
else await serve(settings);

/** A SettingsError ends the start with its message (no stack trace) and exit code 1; anything else is thrown on. */
function refuseStart(error: unknown, exitCode = 1): never {
  if (!(error instanceof SettingsError)) throw error;
  console.error(error.message);
  process.exit(exitCode);
}

/**
 * Calls `stop` once, on the first SIGTERM or SIGINT. The signal often arrives twice (`npm start` passes it on to a
 * process group that got it too, and so does the cluster primary): without this a second one would kill the process.
 */
function onStopSignal(stop: (signal: NodeJS.Signals) => void) {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop(signal);
    });
  }
}

async function serve(settings: Settings) {
  // The stop goes in before anything else: a signal between "Server listening" and a later handler would kill the
  // process with the signal instead of exit code 0. A signal during the start stops the service once it has started
  // (or gives up a start that waits for PostgreSQL: abandonStartLater).
  let stopApp: ((signal: NodeJS.Signals) => void) | undefined;
  let stopRequested: NodeJS.Signals | undefined;
  let abandonStart: NodeJS.Timeout | undefined;
  onStop = (signal) => {
    setTimeout(() => {
      console.error(`still stopping after ${STOP_LIMIT_MS / 1000} s: exiting anyway`);
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    if (stopApp) stopApp(signal);
    else {
      stopRequested = signal;
      abandonStart = abandonStartLater(settings);
    }
  };

  // An owner account the settings cannot create (its name taken) refuses the start like a bad setting.
  // On a terminal, readable lines; anywhere else (a file, a pipe, a container's log) JSON lines for programs.
  const logDestination = process.stdout.isTTY ? terminalLog(process.stdout) : undefined;
  const app = await buildApp(settings, { logDestination }).catch((error: unknown) =>
    refuseStart(error, cluster.isWorker ? START_REFUSED : 1),
  );
  for (const warning of settingsWarnings(settings)) app.log.warn(warning);
  try {
    await app.listen({ port: settings.port, host: settings.host });
  } catch (error) {
    await app.close();
    refuseStart(listenRefusal(error, settings), cluster.isWorker ? START_REFUSED : 1);
  }
  // Once per start, not once per worker (WORKERS > 1).
  if (!cluster.isWorker || cluster.worker?.id === 1)
    app.log.info(startLine(settings, (app.server.address() as AddressInfo).port, app.ownerAtStart));

  stopApp = (signal) => {
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    // Node would wait for a client that stops sending in the middle of a request for minutes (requestTimeout).
    const cutOff = setTimeout(() => {
      app.log.warn(`connections still open ${REQUEST_GRACE_MS / 1000} s after the stop signal: closing them`);
      app.server.closeAllConnections();
    }, REQUEST_GRACE_MS).unref();
    app.server.once('close', () => clearTimeout(cutOff));
    // close() stops accepting connections and the background loops, waits for the requests in flight, then closes the
    // database (src/app.ts). A mail cut off in the middle of its send stays queued for the next start.
    app.close().then(
      () => process.exit(0),
      (error) => {
        app.log.error({ err: error }, 'unclean stop');
        process.exit(1);
      },
    );
  };
  if (stopRequested) {
    clearTimeout(abandonStart);
    stopApp(stopRequested);
  }
}

/**
 * A start still going START_GRACE_MS after a stop signal is waiting for PostgreSQL (another instance's migration lock,
 * a server that does not answer): it is given up with exit code 0, since PostgreSQL rolls back what the lost
 * connection began (a migration is one transaction). On SQLite the start only waits for itself, and a migration there
 * is not one transaction, so it is let finish.
 */
function abandonStartLater(settings: Settings): NodeJS.Timeout | undefined {
  if (settings.database.kind !== 'postgres') return undefined;
  return setTimeout(() => {
    console.error(`stopped during the start: still waiting for PostgreSQL ${START_GRACE_MS / 1000} s after the stop signal`);
    process.exit(0);
  }, START_GRACE_MS).unref();
}

/** A listen error that a setting causes, as a SettingsError naming it; other errors unchanged. */
function listenRefusal(error: unknown, settings: Settings): unknown {
  const { port, host } = settings;
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new SettingsError([`PORT: ${port} is already in use on ${host} (stop what listens there, or choose another PORT)`]);
    case 'EACCES':
      return new SettingsError([`PORT: not allowed to listen on ${port} without privileges (choose a PORT above 1023)`]);
    case 'EADDRNOTAVAIL':
      return new SettingsError([`HOST: ${host} is not an address of this machine`]);
    default:
      return error;
  }
}

/** Migrates once, forks the workers, replaces one that dies, and passes a stop signal on to all of them. */
async function superviseWorkers(settings: Settings) {
  let stopping = false;
  let uncleanExits = 0;
  // Not cluster.workers alone: a worker that has exited stays listed there until its IPC channel closes too, and that
  // can come after its 'exit' event, when nothing would check again.
  const workers = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead());
  const exitOnceAllEnded = () => {
    if (workers().length === 0) process.exit(uncleanExits === 0 ? 0 : 1);
  };
  let migrated = false;
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    if (!migrated) {
      abandonStartLater(settings); // else the migration ends first; nothing is forked after it
      return;
    }
    // Each worker finishes its requests in flight and stops on its own (see serve()).
    for (const worker of workers()) worker.process.kill(signal);
    exitOnceAllEnded();
  };
  onStop = stopAll;

  // Before any worker starts: on SQLite, processes migrating the same file at once would not wait for each other.
  const db = openDatabase(settings.database);
  await migrateToLatest(db);
  await db.destroy();
  migrated = true;
  if (stopping) process.exit(0);

  relayMetricsRequests();
  cluster.on('exit', (worker, code, signal) => {
    if (code === START_REFUSED && !stopping) {
      // Its message is printed; another worker would be refused the same way.
      uncleanExits += 1;
      stopAll('SIGTERM');
      return;
    }
    if (stopping) {
      if (code !== 0) uncleanExits += 1;
      exitOnceAllEnded();
      return;
    }
    console.error(`worker ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another in a second`);
    // The pause keeps a worker that cannot start (database down) from being restarted in a tight loop.
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, 1_000);
  });
  for (let started = 0; started < settings.workers; started += 1) cluster.fork();
}
