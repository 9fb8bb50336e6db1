// Loaded first, before tsx (`node --import ./src/stop-while-loading.mjs --import tsx src/main.ts`: package.json's
// start script and the Dockerfile's CMD), so that a stop signal is taken within milliseconds of the process start.
// Plain JavaScript: loading tsx and compiling src/main.ts take from a third of a second to more than one on a busy
// machine, and in a container the service is PID 1, for which the kernel has no default action: a SIGTERM that came
// before any handler existed would be lost, and the container killed 10 s later. Until src/main.ts takes the signals
// over nothing is open, so the process just ends.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1) process.exit(0);
  });
}
