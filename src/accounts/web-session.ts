// A web login's session: the row the JWT's sId names, and the token. Every way into the web app (a password login,
// a Discord login) opens its session here.
import type { Clock } from '../clock.ts';
import type { Executor, UserRow } from '../database/schema.ts';
import { openWebSessionRow } from '../sessions/issue.ts';
import type { Tokens } from './tokens.ts';

/** Opens a session for `user` and answers its token and where the page goes next (step 3 while it is pending). */
export async function openWebSession(
  db: Executor,
  tokens: Tokens,
  clock: Clock,
  publicUrl: string,
  user: Pick<UserRow, 'id' | 'username'>,
): Promise<{ jwt: string; url: string }> {
  const sessionId = await openWebSessionRow(db, user.id, clock.now(), tokens.lifetimeMs);
  const jwt = await tokens.sign({ userId: user.id, sessionId });
  return { jwt, url: `${publicUrl}${user.username === null ? '/register/finish' : '/home'}` };
}
