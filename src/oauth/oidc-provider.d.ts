// `oidc-provider` ships no types; these are the parts the service uses, as its lib/ defines them (version 9).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** A stored model: the fields oidc-provider keeps, by name. */
  export type AdapterPayload = Record<string, unknown> & { jti?: string; exp?: number; grantId?: string; accountId?: string };

  interface Model {
    jti: string;
    exp: number;
    iat: number;
    save(ttl?: number): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface DeviceCodeModel extends Model {
    clientId: string;
    userCode: string;
    params: { scope?: string; client_id: string };
    accountId?: string;
    grantId?: string;
    scope?: string;
    authTime?: number;
    error?: string;
    errorDescription?: string;
    consumed?: number;
    readonly isExpired: boolean;
  }

  export interface InteractionModel extends Model {
    uid: string;
    returnTo: string;
    params: { client_id: string; scope?: string; [name: string]: unknown };
    result?: Record<string, unknown>;
    readonly isExpired: boolean;
    /** Saves it again with the life it has left. */
    persist(): Promise<string>;
  }

  export interface GrantModel extends Model {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
  }

  export interface ClientModel {
    clientId: string;
    clientName?: string;
    clientSecret?: string;
    grantTypes?: string[];
    redirectUriAllowed(value: string): boolean;
    /** client_secret_basic and client_secret_post: whether the secret sent is the client's. */
    compareClientSecret(sent: string): boolean | Promise<boolean>;
  }

  /** Koa's context as oidc-provider extends it; only what the service reads. */
  export interface KoaContextWithOIDC {
    path: string;
    method: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: any;
    oidc?: { route?: string; params?: Record<string, unknown>; body?: Record<string, unknown>; client?: ClientModel };
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    /** The interaction the request's browser holds (its interaction cookie); throws errors.SessionNotFound without one. */
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionModel>;
    on(event: string, listener: (...args: any[]) => void): void;
    DeviceCode: {
      find(id: string, options?: { ignoreExpiration?: boolean }): Promise<DeviceCodeModel | undefined>;
      findByUserCode(code: string, options?: { ignoreExpiration?: boolean }): Promise<DeviceCodeModel | undefined>;
    };
    Interaction: { find(uid: string): Promise<InteractionModel | undefined> };
    Grant: new (input: { accountId: string; clientId: string }) => GrantModel;
    Client: { find(id: string): Promise<ClientModel | undefined>; prototype: ClientModel };
  }

  export const errors: {
    InvalidScope: new (description: string, scope?: string) => Error;
    AccessDenied: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
  };
}
