// The reads run on every request (reusable-query.ts), on PostgreSQL. Through Kysely each took a pool connection, sent
// its SQL to be parsed and planned anew and waited for its own round trip: a write and a read on the socket per query,
// which cost this process more CPU than the rest of a launcher document. Here they share one connection in pg's
// pipeline mode, as named statements (parsed once per connection), and the queries issued in one turn of the event
// loop leave in one write: under load, the reads of many requests share a round trip.
// They read committed rows, as a pool connection outside a transaction does; nothing is cached.
import pg from 'pg';
import { SERVICE_TYPES } from './pg-types.ts';
import { rowObjects } from './row-objects.ts';

export class PipelinedReads {
  private client: pg.Client | null = null;
  private closed = false;
  private writesHeld = false;
  /** By SQL text: one name for one text, so each is parsed once per connection; its rows' maker (row-objects.ts). */
  private readonly statements = new Map<string, { name: string; row: ((values: unknown[]) => unknown) | null }>();

  constructor(
    private readonly url: string,
    private readonly onConnectionError: (error: Error) => void,
  ) {}

  async rows<Row>(text: string, values: unknown[]): Promise<Row[]> {
    // A read arriving while the service stops must not open a connection that would hold the process open.
    if (this.closed) throw new Error('the database connection is closed');
    const client = this.connection();
    this.holdWritesForThisTurn(client);
    let statement = this.statements.get(text);
    if (statement === undefined) {
      statement = { name: `hot_read_${this.statements.size + 1}`, row: null };
      this.statements.set(text, statement);
    }
    const result = await client.query<unknown[]>({ name: statement.name, text, values, rowMode: 'array' });
    statement.row ??= rowObjects(result.fields.map((field) => field.name));
    return result.rows.map(statement.row as (values: unknown[]) => Row);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end();
  }

  /** The open connection, or a new one when it broke: queries wait for it to connect (pg queues them). */
  private connection(): pg.Client {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url, pipeline: true, types: SERVICE_TYPES });
    const forget = () => {
      if (this.client === client) this.client = null;
    };
    client.on('error', (error) => {
      forget();
      this.onConnectionError(error);
    });
    client.on('end', forget);
    // A failed connect fails the queries waiting for it; the next read tries again.
    client.connect().catch(forget);
    this.client = client;
    return client;
  }

  /** Queries issued until the check phase of this turn are written together (pg corks and uncorks per query). */
  private holdWritesForThisTurn(client: pg.Client) {
    if (this.writesHeld) return;
    this.writesHeld = true;
    const stream = client.connection.stream;
    stream.cork();
    setImmediate(() => {
      this.writesHeld = false;
      stream.uncork();
    });
  }
}
