// A router of a few lines: the path is state, links push history. The server answers every page path with the
// same index.html, so a mailed link (/register/confirm?code=...) opens the right page directly.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

const currentAddress = () => location.pathname + location.search;

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
  listeners.forEach((listener) => listener());
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
