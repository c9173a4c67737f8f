import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What every answer that may carry bytes a user chose says besides its own headers (storage
 * objects, package downloads, pre-flight probes), errors included: the browser must not guess a
 * type (so `application/octet-stream` stays unrendered), and a document it opens anyway gets an
 * opaque origin with no scripts, no plugins and nothing to load. With these and an attachment,
 * uploaded HTML or JavaScript never runs as the app, on the app's own origin (issue 38).
 */
export const SANDBOXED_BYTES_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
};

/**
 * An onSend hook putting SANDBOXED_BYTES_HEADERS on every answer of its route or scope. It runs
 * after the app's page policy (helmet's, set on request), so it replaces that one here.
 */
export async function sandboxBytes(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.headers(SANDBOXED_BYTES_HEADERS);
}
