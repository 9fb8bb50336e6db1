// /metrics in the Prometheus text format. Two kinds of figures: those of this process (request durations, cache
// counters, mail send errors, database connections), summed over every worker process under WORKERS, and those
// read from the shared database (the mail queue), written once.
import type { Kysely } from 'kysely';
import { connectionPoolUse } from '../database/connect.ts';
import type { Database } from '../database/schema.ts';
import type { ImageService } from '../images/service.ts';
import { outboxCounts, type MailWorker } from '../mail/outbox.ts';
import { gatherFromWorkers } from './cluster.ts';
import { DURATION_BUCKETS, RequestDurations, type DurationSeries } from './request-durations.ts';

interface Sample {
  name: keyof typeof FAMILIES;
  labels?: Record<string, string>;
  value: number;
}

/** What one process reports; plain data, so that a worker can send it to the primary process. */
export interface ProcessMetrics {
  requests: DurationSeries[];
  samples: Sample[];
}

const REQUEST_DURATIONS = 'skinservice_http_request_duration_seconds';

const FAMILIES = {
  [REQUEST_DURATIONS]: { type: 'histogram', help: 'Time from receiving a request to sending the response, by route and status' },
  skinservice_image_cache_hits_total: {
    type: 'counter',
    help: 'Images answered from memory: layer "answer" repeats a request URL within 2 s, layer "render" reuses a rendered image',
  },
  skinservice_image_cache_misses_total: { type: 'counter', help: 'Images that had to be rendered' },
  skinservice_image_cache_bytes: { type: 'gauge', help: 'Memory held by each image cache; together at most RENDER_CACHE_MB' },
  skinservice_image_cache_budget_bytes: { type: 'gauge', help: "Each image cache's share of RENDER_CACHE_MB" },
  skinservice_mail_queue_depth: { type: 'gauge', help: 'Mails in the outbox not sent yet (being tried or waiting for a retry)' },
  skinservice_mail_failed: { type: 'gauge', help: 'Mails given up on (refused for good by the SMTP server)' },
  skinservice_mail_send_errors_total: { type: 'counter', help: 'Send attempts that failed, retries included' },
  skinservice_db_connections: { type: 'gauge', help: 'Database connections by state; SQLite has one connection, never waited for here' },
  skinservice_db_connections_max: { type: 'gauge', help: 'Most database connections the pool opens' },
} as const;

export class Metrics {
  constructor(
    private readonly requests: RequestDurations,
    private readonly db: Kysely<Database>,
    private readonly images: ImageService,
    private readonly mailWorker: MailWorker,
  ) {}

  processMetrics(): ProcessMetrics {
    const cache = this.images.cacheCounts();
    const pool = connectionPoolUse(this.db);
    return {
      requests: this.requests.snapshot(),
      samples: [
        { name: 'skinservice_image_cache_hits_total', labels: { layer: 'answer' }, value: cache.answerHits },
        { name: 'skinservice_image_cache_hits_total', labels: { layer: 'render' }, value: cache.renderHits },
        { name: 'skinservice_image_cache_misses_total', value: cache.renderMisses },
        ...Object.entries(this.images.cacheMemory()).flatMap(([cache, memory]): Sample[] => [
          { name: 'skinservice_image_cache_bytes', labels: { cache }, value: memory.bytes },
          { name: 'skinservice_image_cache_budget_bytes', labels: { cache }, value: memory.budget },
        ]),
        { name: 'skinservice_mail_send_errors_total', value: this.mailWorker.failedAttempts },
        { name: 'skinservice_db_connections', labels: { state: 'total' }, value: pool.total },
        { name: 'skinservice_db_connections', labels: { state: 'idle' }, value: pool.idle },
        { name: 'skinservice_db_connections', labels: { state: 'waiting' }, value: pool.waiting },
        { name: 'skinservice_db_connections_max', value: pool.max },
      ],
    };
  }

  /** The whole exposition: every worker's figures summed, then the shared ones. */
  async exposition(): Promise<string> {
    const [processes, outbox] = await Promise.all([gatherFromWorkers(() => this.processMetrics()), outboxCounts(this.db)]);
    const shared: Sample[] = [
      { name: 'skinservice_mail_queue_depth', value: outbox.pending },
      { name: 'skinservice_mail_failed', value: outbox.failed },
    ];
    return writeExposition(
      sumRequests(processes.flatMap((p) => p.requests)),
      sumSamples([...processes.flatMap((p) => p.samples), ...shared]),
    );
  }
}

function sumRequests(all: DurationSeries[]): DurationSeries[] {
  const summed = new Map<string, DurationSeries>();
  for (const series of all) {
    const key = `${series.method} ${series.route} ${series.status}`;
    const total = summed.get(key);
    if (!total) summed.set(key, { ...series, buckets: [...series.buckets] });
    else {
      series.buckets.forEach((count, bucket) => (total.buckets[bucket]! += count));
      total.sum += series.sum;
      total.count += series.count;
    }
  }
  return [...summed.values()];
}

function sumSamples(all: Sample[]): Sample[] {
  const summed = new Map<string, Sample>();
  for (const sample of all) {
    const key = `${sample.name}${labelText(sample.labels ?? {})}`;
    const total = summed.get(key);
    if (total) total.value += sample.value;
    else summed.set(key, { ...sample });
  }
  return [...summed.values()];
}

function writeExposition(requests: DurationSeries[], samples: Sample[]): string {
  const lines: string[] = [];
  for (const [name, family] of Object.entries(FAMILIES)) {
    lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`);
    if (name === REQUEST_DURATIONS) {
      for (const series of requests) {
        const labels = { method: series.method, route: series.route, status_code: String(series.status) };
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, bucket) => {
          cumulative += series.buckets[bucket]!;
          lines.push(`${name}_bucket${labelText({ ...labels, le: String(bound) })} ${cumulative}`);
        });
        lines.push(`${name}_bucket${labelText({ ...labels, le: '+Inf' })} ${series.count}`);
        lines.push(`${name}_sum${labelText(labels)} ${series.sum}`, `${name}_count${labelText(labels)} ${series.count}`);
      }
    }
    for (const sample of samples) if (sample.name === name) lines.push(`${name}${labelText(sample.labels ?? {})} ${sample.value}`);
  }
  return `${lines.join('\n')}\n`;
}

function labelText(labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(
    ([key, value]) => `${key}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}
