import type { IncomingHttpHeaders } from 'node:http';

/** Swift's default metadata constraints (swift/common/constraints.py). */
const MAX_META_NAME_BYTES = 128;
const MAX_META_VALUE_BYTES = 256;
const MAX_META_COUNT = 90;
const MAX_META_OVERALL_BYTES = 4096;

const META_PREFIX = 'x-object-meta-';

export type MetadataResult =
  | { readonly ok: true; readonly metadata: Record<string, string> }
  | { readonly ok: false; readonly problem: string };

/** X-Object-Meta-* request headers, checked against Swift's limits (400 when exceeded). */
export function objectMetadataFrom(headers: IncomingHttpHeaders): MetadataResult {
  const metadata: Record<string, string> = {};
  let count = 0;
  let overall = 0;
  for (const [header, raw] of Object.entries(headers)) {
    if (!header.startsWith(META_PREFIX) || raw === undefined) continue;
    const name = header.slice(META_PREFIX.length);
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (name.length === 0) return { ok: false, problem: 'Metadata name cannot be empty' };
    if (Buffer.byteLength(name) > MAX_META_NAME_BYTES) {
      return { ok: false, problem: `Metadata name too long: ${header}` };
    }
    if (Buffer.byteLength(value) > MAX_META_VALUE_BYTES) {
      return {
        ok: false,
        problem: `Metadata value longer than ${MAX_META_VALUE_BYTES}: ${header}`,
      };
    }
    count++;
    overall += Buffer.byteLength(name) + Buffer.byteLength(value);
    metadata[name] = value;
  }
  if (count > MAX_META_COUNT)
    return { ok: false, problem: `Too many metadata items; max ${MAX_META_COUNT}` };
  if (overall > MAX_META_OVERALL_BYTES) {
    return { ok: false, problem: `Total metadata too large; max ${MAX_META_OVERALL_BYTES}` };
  }
  return { ok: true, metadata };
}

/**
 * Response headers for stored metadata. TempURL responses only show X-Object-Meta-Public-*
 * (Swift's tempurl outgoing_remove_headers / outgoing_allow_headers defaults).
 */
export function metadataHeaders(
  metadata: Readonly<Record<string, string>>,
  viaTempUrl: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(metadata)) {
    if (viaTempUrl && !name.startsWith('public-')) continue;
    headers[META_PREFIX + name] = value;
  }
  return headers;
}
