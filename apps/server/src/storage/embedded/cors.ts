import type { ContainerRecord } from './object-file-store';

/**
 * CORS as Swift's proxy does it in strict mode (proxy/controllers/base.py): an origin is
 * allowed when the container's metadata or the store-wide setting lists it (or '*'); a
 * preflight from anyone else, or for a method the resource lacks, is 401; actual responses
 * carry Allow-Origin and Expose-Headers only for allowed origins.
 */

export const OBJECT_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS'] as const;

/** Swift's always-exposed list (cors_validation). */
const SWIFT_EXPOSED_HEADERS = [
  'cache-control',
  'content-language',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
  'etag',
  'x-timestamp',
  'x-trans-id',
  'x-openstack-request-id',
];

export interface CorsPolicy {
  /** Store-wide allowed origins (Swift's proxy `cors_allow_origin`). */
  readonly storeOrigins: readonly string[];
}

function allowedOrigins(policy: CorsPolicy, container: ContainerRecord | null): Set<string> {
  return new Set([...policy.storeOrigins, ...(container?.allowedOrigins ?? [])]);
}

export function isOriginAllowed(
  policy: CorsPolicy,
  container: ContainerRecord | null,
  origin: string,
): boolean {
  const origins = allowedOrigins(policy, container);
  return origins.has(origin) || origins.has('*');
}

function allowOriginHeaders(
  container: ContainerRecord | null,
  origin: string,
  vary: string[],
): Record<string, string> {
  const wildcard = container?.allowedOrigins.length === 1 && container.allowedOrigins[0] === '*';
  if (wildcard) return { 'access-control-allow-origin': '*' };
  vary.unshift('Origin');
  return { 'access-control-allow-origin': origin };
}

/** The answer to an OPTIONS request: status and headers. */
export function preflight(
  policy: CorsPolicy,
  container: ContainerRecord | null,
  headers: { origin?: string; requestMethod?: string; requestHeaders?: string },
): { status: 200 | 401; headers: Record<string, string> } {
  const allow = { allow: OBJECT_METHODS.join(', ') };
  if (!headers.origin) return { status: 200, headers: allow };
  const methodAllowed = (OBJECT_METHODS as readonly string[]).includes(headers.requestMethod ?? '');
  if (!isOriginAllowed(policy, container, headers.origin) || !methodAllowed) {
    return { status: 401, headers: allow };
  }
  const vary: string[] = [];
  const result: Record<string, string> = {
    ...allow,
    ...allowOriginHeaders(container, headers.origin, vary),
    'access-control-allow-methods': OBJECT_METHODS.join(', '),
  };
  if (container?.maxAgeSeconds !== undefined) {
    result['access-control-max-age'] = String(container.maxAgeSeconds);
  }
  const requested = (headers.requestHeaders ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  if (requested.length > 0) {
    result['access-control-allow-headers'] = [...new Set(requested)].join(', ');
    vary.push('Access-Control-Request-Headers');
  }
  if (vary.length > 0) result.vary = vary.join(', ');
  return { status: 200, headers: result };
}

/**
 * Headers added to an actual response for a cross-origin request, or {} when the origin is
 * not allowed. `responseHeaderNames` lets X-Object-Meta-* headers be exposed as Swift does.
 */
export function corsResponseHeaders(
  policy: CorsPolicy,
  container: ContainerRecord | null,
  origin: string | undefined,
  responseHeaderNames: readonly string[],
): Record<string, string> {
  if (!origin || !isOriginAllowed(policy, container, origin)) return {};
  const exposed = new Set(SWIFT_EXPOSED_HEADERS);
  for (const name of responseHeaderNames) {
    const lower = name.toLowerCase();
    if (lower.startsWith('x-object-meta-') || lower.startsWith('x-container-meta-'))
      exposed.add(lower);
  }
  for (const name of container?.exposedHeaders ?? []) exposed.add(name.toLowerCase());
  const vary: string[] = [];
  const headers = allowOriginHeaders(container, origin, vary);
  if (vary.length > 0) headers.vary = vary.join(', ');
  return { ...headers, 'access-control-expose-headers': [...exposed].join(', ') };
}
