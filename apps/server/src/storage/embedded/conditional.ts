/** Whether an etag given by a client (quoted or not) names `etag`, the MD5 hex storage reports. */
export function etagMatches(given: string, etag: string): boolean {
  return given.trim().replace(/"/g, '').toLowerCase() === etag;
}

/**
 * Swift's If-Match on GET and HEAD: absent or `*` lets any existing object through; otherwise
 * one of the comma-separated etags must be the object's (a manifest's own etag, as its HEAD
 * reports it). False means 412 Precondition Failed.
 */
export function ifMatchAllows(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  const candidates = header.split(',').map((c) => c.trim());
  return candidates.some((c) => c === '*' || etagMatches(c, etag));
}
