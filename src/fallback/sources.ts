// The places an unknown player may come from (contract section 20): Mojang, whose session and API servers are
// settings, and other authlib-injector servers, each known by its API root and read from its metadata.
import type { FallbackSourceSettings } from '../settings.ts';
import { askSource } from './client.ts';

/** How long a source's metadata may take at start; a source that does not answer is asked again later. */
const METADATA_TIMEOUT_MS = 5_000;
/** How long a failed metadata read is remembered before the next try. */
const METADATA_RETRY_MS = 60_000;

/** What a source's metadata tells us: the name shown to players and the hosts its textures come from. */
export interface SourceMetadata {
  serverName: string | null;
  skinDomains: string[];
}

export class FallbackSource {
  /** The session server's `session/minecraft/` base. */
  readonly sessionBase: string;
  /** Names to profiles, as a POST of a JSON array. */
  readonly lookupUrl: string;
  /** How many names one look-up request carries (Mojang answers at most 10). */
  readonly lookupBatch = 10;
  private metadata: SourceMetadata | null = null;
  private metadataRead: Promise<void> | null = null;
  private metadataFailedAt = 0;

  constructor(
    private readonly settings: FallbackSourceSettings,
    private readonly now: () => number,
  ) {
    if (settings.kind === 'mojang') {
      this.sessionBase = `${settings.sessionUrl}/session/minecraft/`;
      this.lookupUrl = `${settings.apiUrl}/profiles/minecraft`;
      this.metadata = { serverName: settings.name, skinDomains: [settings.texturesHost] };
    } else {
      this.sessionBase = `${settings.root}sessionserver/session/minecraft/`;
      this.lookupUrl = `${settings.root}api/profiles/minecraft`;
    }
  }

  /** What a premium link stores as its source: 'mojang', or the API root (stable when the shown name changes). */
  get key(): string {
    return this.settings.kind === 'mojang' ? 'mojang' : this.settings.root;
  }

  /** Whether a texture URL's host (port aside) is one the source's textures come from ('.example.org': its subdomains). */
  servesTexturesFrom(url: string): boolean {
    let host: string;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
      host = parsed.hostname.toLowerCase();
    } catch {
      return false;
    }
    return this.skinDomains.some((domain) => {
      const wanted = domain.toLowerCase();
      return wanted.startsWith('.') ? host.endsWith(wanted) && host.length > wanted.length : host === wanted;
    });
  }

  /** FALLBACK_SERVERS' name=, else the server's own meta.serverName, else its host name. */
  get name(): string {
    if (this.settings.kind === 'mojang') return this.settings.name;
    return this.settings.name ?? this.metadata?.serverName ?? new URL(this.settings.root).hostname;
  }

  /** The hosts its textures come from, once its metadata was read. */
  get skinDomains(): string[] {
    return this.metadata?.skinDomains ?? [];
  }

  /** Reads the metadata (`GET {root}`) once; a failed read is tried again a minute later, on the next call. */
  readMetadata(): Promise<void> {
    if (this.settings.kind === 'mojang' || this.metadata) return Promise.resolve();
    if (this.metadataRead) return this.metadataRead;
    if (this.metadataFailedAt !== 0 && this.now() - this.metadataFailedAt < METADATA_RETRY_MS) return Promise.resolve();
    const root = this.settings.root;
    this.metadataRead = askSource(root, AbortSignal.timeout(METADATA_TIMEOUT_MS)).then((answer) => {
      this.metadataRead = null;
      const parsed = answer?.status === 200 ? parseMetadata(answer.body) : null;
      if (parsed) this.metadata = parsed;
      else this.metadataFailedAt = this.now();
    });
    return this.metadataRead;
  }
}

function parseMetadata(body: unknown): SourceMetadata | null {
  if (typeof body !== 'object' || body === null) return null;
  const { meta, skinDomains } = body as { meta?: { serverName?: unknown }; skinDomains?: unknown };
  const serverName = typeof meta?.serverName === 'string' && meta.serverName.length <= 64 ? meta.serverName : null;
  const domains = Array.isArray(skinDomains)
    ? skinDomains.filter((domain): domain is string => typeof domain === 'string' && /^\.?[a-z0-9.-]{1,253}$/i.test(domain))
    : [];
  return { serverName, skinDomains: domains.slice(0, 32) };
}
