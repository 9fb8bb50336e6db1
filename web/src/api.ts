// The one way the pages talk to the service: JSON in the envelope ({error, msg, url, data}), the token from login
// kept in localStorage, and the API's own message shown when something is refused.

import type { HardwareRecord } from '../../src/gravit/shapes.ts';
import type { AuditEntry } from '../../src/http/shapes/audit-entry.ts';
import type { CapeRecord } from '../../src/http/shapes/cape-record.ts';
import type { SkinRecord } from '../../src/http/shapes/skin-record.ts';
import type { UserDetail } from '../../src/http/shapes/user-detail.ts';
import type { UserRecord } from '../../src/http/shapes/user-record.ts';

export type { AuditEntry, CapeRecord, HardwareRecord, SkinRecord, UserDetail, UserRecord };

import { language, onLanguageChosen, t } from './i18n.ts';

const TOKEN_KEY = 'skinservice.token';

/** The values of an API refusal's message (X-Error-Params): the field it is about, names, counts, byte sizes. */
export type ErrorParams = Record<string, string | number>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The error's `data`: `{}`, or `{totp_required: true}` when a login needs the code of the second factor. */
    readonly data: Record<string, unknown> = {},
    /** The API's message key (X-Error-Key), by which the pages put a refusal in their own words; null when not sent. */
    readonly key: string | null = null,
    readonly params: ErrorParams = {},
  ) {
    super(message);
  }

  /** The request field the refusal is about, when it is about one. */
  get field(): string | null {
    return typeof this.params.field === 'string' ? this.params.field : null;
  }
}

function errorParams(header: string | null): ErrorParams {
  try {
    const params: unknown = header === null ? {} : JSON.parse(header);
    return typeof params === 'object' && params !== null ? (params as ErrorParams) : {};
  } catch {
    return {};
  }
}

export interface Envelope<T> {
  msg: string;
  url: string | null;
  data: T;
  /** From X-Total-Count on paginated lists. */
  total: number | null;
  /** The response's headers (same origin, so all of them are readable). */
  headers: Headers;
}

export const session = {
  token: (): string | null => localStorage.getItem(TOKEN_KEY),
  save: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Whether a body carries the account's own password (a password or mail change, deleting the account). */
const sendsPassword = (body: unknown) => typeof body === 'object' && body !== null && ('password' in body || 'current_password' in body);

async function request<T>(
  method: string,
  path: string,
  options: { body?: unknown; form?: FormData; query?: Query } = {},
): Promise<Envelope<T>> {
  // The API's `msg` in the page's language (contract section 14).
  const headers: Record<string, string> = { 'accept-language': language() };
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { method, headers, body });
  } catch {
    // No answer at all (offline, the service restarting): say so in the page's words, with what to do (status 0).
    throw new ApiError(0, t('common.unreachable'));
  }
  if (response.status === 204) return { msg: '', url: null, data: undefined as T, total: null, headers: response.headers };
  const json = (await response.json().catch(() => null)) as { error?: boolean; msg?: string; url?: string | null; data?: T } | null;
  if (!response.ok || !json || json.error) {
    // A revoked or expired token: forget it, so the next page asks for a login instead of failing again.
    // Not when the request sent the account's password: its 401 says the password is wrong, the token still works.
    if (response.status === 401 && !sendsPassword(options.body)) session.clear();
    const data = json?.data && typeof json.data === 'object' ? (json.data as Record<string, unknown>) : {};
    const message = json?.msg ?? t('common.serviceAnswered', { status: response.status });
    throw new ApiError(
      response.status,
      message,
      data,
      response.headers.get('x-error-key'),
      errorParams(response.headers.get('x-error-params')),
    );
  }
  const total = response.headers.get('x-total-count');
  return {
    msg: json.msg ?? '',
    url: json.url ?? null,
    data: json.data as T,
    total: total === null ? null : Number(total),
    headers: response.headers,
  };
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, { body }),
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, { form }),
};

/** Same-origin texture and render addresses (the records' absolute `url` follows PUBLIC_URL, which may differ in development). */
export const textureUrls = {
  skinFile: (skinUuid: string) => `/api/skin/cloak/${skinUuid}`,
  capeFile: (capeUuid: string) => `/api/skin/standart/cape/${capeUuid}`,
  head: (identifier: string, size = 64) => `/api/skin/head/${identifier}?size=${size}&type=player`,
  cloak: (capeUuid: string, size = 64) => `/api/skin/cloak/${capeUuid}?size=${size}&type=skin`,
  /** The whole player in 3D from the front: a skin's thumbnail (`size` wide, about 2.2 times as high). */
  body: (identifier: string, size = 48) => `/api/skin/body/${identifier}?size=${size}&type=player`,
  /** The default player from behind wearing the cape: a cape's thumbnail, the same size as a skin's. */
  capeOnPlayer: (capeUuid: string, size = 48) => `/api/skin/cloak/${capeUuid}?size=${size}&type=player`,
};

// A language chosen in the picker while logged in is stored on the account (contract section 14).
onLanguageChosen((chosen) => (session.token() ? api.patch('/api/home', { language: chosen }) : Promise.resolve()));
