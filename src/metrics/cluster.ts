// Under WORKERS=n a scrape reaches one worker process, but must report them all. The worker that was asked sends
// a request to the primary process; the primary asks every worker for its figures and hands the answers back.
// It carries whatever figures a process reports (metrics.ts decides their shape), so it imports nothing of them.
import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';

type Message =
  | { type: 'metrics:gather'; id: string }
  | { type: 'metrics:report'; id: string }
  | { type: 'metrics:reported'; id: string; metrics: unknown }
  | { type: 'metrics:gathered'; id: string; metrics: unknown[] };

/** A worker that does not answer within this time (busy, or stopping) is left out of that scrape. */
const GATHER_TIMEOUT_MS = 2_000;

const isMessage = (message: unknown): message is Message =>
  typeof message === 'object' && message !== null && String((message as { type?: unknown }).type).startsWith('metrics:');

/** Every process's figures: only this one's outside a cluster worker. */
export function gatherFromWorkers<Figures>(local: () => Figures): Promise<Figures[]> {
  if (!cluster.isWorker) return Promise.resolve([local()]);
  const id = randomUUID();
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (!isMessage(message) || message.type !== 'metrics:gathered' || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(message.metrics as Figures[]);
    };
    // The primary answers within its own timeout; this one only guards against a primary that is gone.
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      resolve([local()]);
    }, GATHER_TIMEOUT_MS * 2);
    process.on('message', onMessage);
    process.send!({ type: 'metrics:gather', id } satisfies Message);
  });
}

/** In a worker: answers the primary's requests for this process's figures. Returns the function that stops it. */
export function answerMetricsRequests(local: () => unknown): () => void {
  if (!cluster.isWorker) return () => {};
  const onMessage = (message: unknown) => {
    if (isMessage(message) && message.type === 'metrics:report')
      process.send!({ type: 'metrics:reported', id: message.id, metrics: local() } satisfies Message);
  };
  process.on('message', onMessage);
  return () => process.off('message', onMessage);
}

/** In the primary: relays a worker's gather request to every worker and sends the collected answers back. */
export function relayMetricsRequests() {
  cluster.on('message', (requester: Worker, message: unknown) => {
    if (!isMessage(message) || message.type !== 'metrics:gather') return;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && worker.isConnected());
    const collected: unknown[] = [];
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      cluster.off('message', onReport);
      if (requester.isConnected()) requester.send({ type: 'metrics:gathered', id: message.id, metrics: collected } satisfies Message);
    };
    const onReport = (_worker: Worker, report: unknown) => {
      if (!isMessage(report) || report.type !== 'metrics:reported' || report.id !== message.id) return;
      collected.push(report.metrics);
      if (collected.length === workers.length) finish();
    };
    const timer = setTimeout(finish, GATHER_TIMEOUT_MS);
    cluster.on('message', onReport);
    for (const worker of workers) worker.send({ type: 'metrics:report', id: message.id } satisfies Message);
  });
}
