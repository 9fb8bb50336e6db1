// A launcher of Yggdrasil Connect in tests: openid-client (v6) as the relying party, its requests sent to a service
// (in this process through inject, or over HTTP to a process of its own), and a browser's cookie jar for the
// authorization code flow's redirects.
import * as oidc from 'openid-client';
import { randomAddress, type ServiceClient } from './service.ts';

export const DEVICE_SCOPE = 'openid offline_access Yggdrasil.PlayerProfiles.Select Yggdrasil.Server.Join';

/**
 * openid-client's fetch, answered by the service (its PUBLIC_URL's path and query, the service's answer), each request
 * from an address of its own: the service limits the requests that store a row per address, and a suite's launchers
 * stand for many players.
 */
export function fetchThrough(service: Pick<ServiceClient, 'call'>): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit).forEach((value, name) => (headers[name] = value));
    const body = options.body === undefined || options.body === null ? undefined : String(options.body);
    const reply = await service.call(options.method, target.pathname + target.search, { body, headers, ip: randomAddress() });
    const answer = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [String(value)]) answer.append(name, one);
    }
    return new Response(reply.status === 204 || reply.status === 304 ? null : new Uint8Array(reply.raw), {
      status: reply.status,
      headers: answer,
    });
  };
}

/** The launcher's configuration: discovery at the service's PUBLIC_URL, as the shared client. */
export async function launcherConfig(service: ServiceClient): Promise<oidc.Configuration> {
  const discovered = await service.call('GET', '/.well-known/openid-configuration');
  const fetch = fetchThrough(service);
  const config = await oidc.discovery(new URL(service.settings.publicUrl), discovered.body.shared_client_id, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: fetch,
  });
  config[oidc.customFetch] = fetch;
  return config;
}

/** A browser's cookies for one site: what Set-Cookie gave, sent back on every request. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(headers: Record<string, unknown>) {
    const set = headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [String(set)] : []) {
      const [pair] = String(line).split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  }

  header(): Record<string, string> {
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}

export { oidc };
