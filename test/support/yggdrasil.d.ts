// The `yggdrasil` package ships no types; these are the calls the tests make, as its source (src/Client.js,
// src/Server.js) defines them. Answers are the server's JSON as it came.
declare module 'yggdrasil' {
  interface AuthClient {
    auth(options: { user: string; pass: string; token?: string | null; requestUser?: boolean }): Promise<any>;
    /** Resolves with the answer's body (the callback form gets the new token first). */
    refresh(accessToken: string, clientToken: string, requestUser?: boolean): Promise<any>;
    validate(accessToken: string): Promise<unknown>;
    invalidate(accessToken: string, clientToken: string): Promise<unknown>;
    signout(username: string, password: string): Promise<unknown>;
  }
  interface SessionClient {
    join(accessToken: string, selectedProfile: string, serverId: string, sharedSecret: Buffer, serverPublicKey: Buffer): Promise<unknown>;
    hasJoined(username: string, serverId: string, sharedSecret: Buffer, serverPublicKey: Buffer): Promise<any>;
  }
  interface Yggdrasil {
    (options: { host: string }): AuthClient;
    server(options: { host: string }): SessionClient;
  }
  const yggdrasil: Yggdrasil;
  export default yggdrasil;
}
