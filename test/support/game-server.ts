// minecraft-protocol's game server, pointed at a session server of ours.
import { createRequire } from 'node:module';

/**
 * minecraft-protocol's game server asks Mojang's session server and has no option for another: its login step calls
 * `yggdrasil.server({agent})` for every connection, on the `yggdrasil` module it requires itself. Required from
 * minecraft-protocol's own folder, 'yggdrasil' resolves to that very module instance; its `server` is wrapped to
 * supply our session server where the caller names none (the client side names its own and keeps it).
 * Returns the function that puts the original back.
 */
export function redirectGameServerSessions(sessionServer: string): () => void {
  const fromMinecraftProtocol = createRequire(createRequire(import.meta.url).resolve('minecraft-protocol'));
  const sessions = fromMinecraftProtocol('yggdrasil') as { server: (options?: { host?: string }) => unknown };
  const original = sessions.server;
  sessions.server = (options = {}) => original({ ...options, host: options.host ?? sessionServer });
  return () => {
    sessions.server = original;
  };
}
