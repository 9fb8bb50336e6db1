// The pages' paths: the server answers each with the web app (src/pages/routes.ts), the app has a page for each
// (web/src/main.tsx), and the API's `url` values and mails link to them. Shared by the service and the pages (web/
// bundles this file): it imports nothing, so the page build takes only these constants.

export const PAGE_PATHS = [
  '/',
  '/login',
  '/register',
  '/register/confirm',
  '/register/finish',
  '/discord',
  '/oidc',
  '/register/oidc',
  '/reset',
  '/reset/confirm',
  '/mail/confirm',
  '/home',
  '/library',
  '/admin',
  '/device',
  '/authorize',
] as const;

export type PagePath = (typeof PAGE_PATHS)[number];

/** A page's address with or without a query: what a link to a page may be, checked against PAGE_PATHS. */
export type PageAddress = PagePath | `${PagePath}?${string}`;
