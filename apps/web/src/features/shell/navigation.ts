/** The prefix under which every main screen is also served in the branded layout. */
export const BRANDING_PREFIX = '/branding';

/** '/branding' when the current page is a branded one, so links stay in that layout. */
export function routePrefix(pathname: string): string {
  return pathname === BRANDING_PREFIX || pathname.startsWith(`${BRANDING_PREFIX}/`)
    ? BRANDING_PREFIX
    : '';
}

/** The Inbox badge text: nothing for none, the count up to 9, then '9+'. */
export function unseenBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}

/** The login page address that brings the user back to `path` afterwards. */
export function loginRedirect(path: string): string {
  return `/login?${new URLSearchParams({ next: path }).toString()}`;
}

/**
 * Where to go after logging in: the `next` parameter if it is a path of this app, else '/'.
 * Anything else (another origin, '//host') would make the login page an open redirect.
 */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
