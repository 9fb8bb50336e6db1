// A stand-in for a GravitLauncher LaunchServer's HttpRequester (LaunchServer HttpRequester.java and HttpHelper.java,
// as the research note on GravitLauncher §2.4 reads them): every request carries `Content-Type: application/json;
// charset=UTF-8`, `Accept: application/json` and the bearer, GETs without a body; the whole answer is parsed as JSON
// whatever its status (an empty body is null), and a non-2xx answer is read as the LaunchServer's SimpleError
// `{error, code}`. Anything that is not JSON, or an error that is not exactly that shape, fails the test, as it would
// make Gson throw in the LaunchServer.
import assert from 'node:assert/strict';
import type { ServiceClient } from './service.ts';

export type LaunchServerAnswer<T = any> =
  | { status: number; ok: true; result: T; headers: Record<string, unknown> }
  | { status: number; ok: false; error: { error: string; code: number }; headers: Record<string, unknown> };

export class LaunchServerRequester {
  constructor(
    private readonly service: Pick<ServiceClient, 'call'>,
    private readonly bearerToken: string,
    private readonly root = '/api/gravit/',
  ) {}

  get<T = any>(path: string, options: { bearer?: string } = {}): Promise<LaunchServerAnswer<T>> {
    return this.send('GET', path, undefined, options.bearer);
  }

  post<T = any>(path: string, body: unknown, options: { bearer?: string } = {}): Promise<LaunchServerAnswer<T>> {
    return this.send('POST', path, JSON.stringify(body), options.bearer);
  }

  /** A POST whose body is given as text, as it goes on the wire (bad JSON, for instance). */
  postRaw<T = any>(path: string, text: string): Promise<LaunchServerAnswer<T>> {
    return this.send('POST', path, text);
  }

  private async send<T>(
    method: string,
    path: string,
    payload: string | undefined,
    bearer = this.bearerToken,
  ): Promise<LaunchServerAnswer<T>> {
    const reply = await this.service.call(method, `${this.root}${path}`, {
      ...(payload !== undefined ? { body: payload } : {}),
      headers: {
        'content-type': 'application/json; charset=UTF-8',
        accept: 'application/json',
        authorization: `Bearer ${bearer}`,
      },
    });
    const text = reply.raw.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      assert.fail(`${method} ${path} answered ${reply.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    if (reply.status >= 200 && reply.status < 300) return { status: reply.status, ok: true, result: parsed as T, headers: reply.headers };
    assert.ok(parsed !== null && typeof parsed === 'object', `${method} ${path}: ${reply.status} without an error object`);
    const error = parsed as Record<string, unknown>;
    assert.deepEqual(Object.keys(error).sort(), ['code', 'error'], `${method} ${path}: the error is exactly {error, code}: ${text}`);
    assert.equal(typeof error.error, 'string', `${method} ${path}: error is a string`);
    assert.ok(Number.isInteger(error.code), `${method} ${path}: code is an integer`);
    return { status: reply.status, ok: false, error: error as { error: string; code: number }, headers: reply.headers };
  }
}
