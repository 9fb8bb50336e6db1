// A router of a few lines: the path is state, links push history. The server answers every page path with the
// same index.html, so a mailed link (/register/confirm?code=...) opens the right page directly.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();

/**
 * After a page change, the focus goes to the new page's heading (every page's h1 has tabindex -1): a screen reader
 * reads where the player is, and Tab goes on from the top of the new page instead of from a link that is gone.
 * Once the new page has rendered (Preact renders in a microtask, this timer comes after it).
 */
function focusHeading() {
  setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus());
}

const currentAddress = () => location.pathname + location.search;
/** The page shown: a link to a part of it (#security) changes only the fragment, which the browser handles itself. */
let shownAddress = currentAddress();

function changed() {
  shownAddress = currentAddress();
  listeners.forEach((listener) => listener());
  focusHeading();
}

window.addEventListener('popstate', () => currentAddress() !== shownAddress && changed());

/**
 * Goes to `to`, a path or an absolute URL. The API's `url` values start with PUBLIC_URL, which need not be the
 * address this page was opened by (127.0.0.1, a LAN address); history accepts only this origin, so the path is
 * what counts.
 */
export function navigate(to: string, options: { replace?: boolean } = {}) {
  const { pathname, search, hash } = new URL(to, location.href);
  const path = pathname + search + hash;
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  changed();
}

/** The current location; re-renders the caller when it changes. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setVersion] = useState(0);
  const rendered = currentAddress();
  useEffect(() => {
    const listener = () => setVersion((version) => version + 1);
    listeners.add(listener);
    // Effects run children first: a page that redirected in its own effect (to /login, say) did so before this
    // listener existed, so catch up with it here.
    if (currentAddress() !== rendered) listener();
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

export function Link(props: { href: string; children: ComponentChildren; class?: string }) {
  return (
    <a
      href={props.href}
      class={props.class}
      onClick={(event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

/**
 * The address to land on after a login: the `next` of /login?next=, when it is a path of this site (never another
 * site: `//evil.example`, `/\evil.example` and absolute URLs are not paths of this site), else null.
 */
export function loginTarget(query: URLSearchParams = new URLSearchParams(location.search)): string | null {
  const next = query.get('next');
  // A path: one leading slash, not two (a scheme-relative URL), no backslash (browsers read it as a slash) and no
  // control characters (stripped by URL parsing, so that `/\t/evil.example` would become `//evil.example`).
  if (!next || !next.startsWith('/') || /^\/[/\\]/.test(next) || /[\\\u0000-\u001f\u007f]/.test(next)) return null;
  const url = new URL(next, location.origin);
  if (url.origin !== location.origin || url.pathname === '/login') return null;
  return url.pathname + url.search + url.hash;
}

/**
 * Where a login goes on: the API's `url` (`/register/finish` for an account still to be finished) unless it is the
 * profile, when the page the visitor was sent to log in from comes first.
 */
export function afterLogin(url: string | null): string {
  const pointed = url === null ? '/home' : new URL(url, location.href).pathname;
  return pointed === '/home' ? (loginTarget() ?? url ?? '/home') : url!;
}

/**
 * Sends a visitor who must log in first to /login, remembering the page they opened (path and query) in `next`, so
 * that the login lands there instead of on the profile.
 */
export function sendToLogin() {
  const here = location.pathname + location.search + location.hash;
  navigate(here === '/home' || location.pathname === '/login' ? '/login' : `/login?next=${encodeURIComponent(here)}`, { replace: true });
}
