import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { contentRange, decideRange } from '../byte-range';
import type { FreeSpace } from '../free-space';
import type { SignatureDigest } from '../storage-driver';
import { corsResponseHeaders, type CorsPolicy } from './cors';
import { ObjectWriteError, type ObjectRecord } from './object-file';
import { MAX_OBJECT_BYTES, type ContainerRecord, type ObjectFileStore } from './object-file-store';
import { metadataHeaders, objectMetadataFrom } from './object-metadata';
import { ifMatchAllows } from './conditional';
import { SegmentError, objectEtag, objectLength, openObjectStream } from './slo-manifest';
import { contentDisposition, verifyTempUrl, type StoreTarget } from './store-request';
import type { AdmittedWrite, RefusedWrite } from './write-allowance';

/** Everything one object request needs, resolved by the plugin before dispatch. */
export interface ObjectRequest {
  readonly store: ObjectFileStore;
  readonly keys: readonly string[];
  readonly digests: readonly SignatureDigest[];
  readonly cors: CorsPolicy;
  readonly target: StoreTarget;
  readonly query: URLSearchParams;
  readonly container: ContainerRecord | null;
  /** Whether the object lies under a sealed prefix: no grant may write or delete it any more. */
  readonly isSealed: (key: string) => Promise<boolean>;
  /** Lets in a write of so many bytes (undefined: not announced) to the object, or refuses it. */
  readonly admitWrite: (
    key: string,
    length: number | undefined,
  ) => Promise<AdmittedWrite | RefusedWrite>;
  /** Publishes a write unless the object is sealed by then (false), as one step against sealing. */
  readonly publishUnlessSealed: (key: string, publish: () => Promise<void>) => Promise<boolean>;
  /** The volume's free-space floor, under which new objects are refused; none when null. */
  readonly freeSpace: FreeSpace | null;
}

const SEALED = 'Forbidden: this object is sealed and can no longer change\n';
const FULL = 'Insufficient Storage: the volume is full, try again once space is freed';

/** Headers a TempURL may not set (Swift's DISALLOWED_INCOMING_HEADERS, plus SLO's reserved one). */
const DISALLOWED_TEMPURL_HEADERS = [
  'x-object-manifest',
  'x-symlink-target',
  'x-copy-from',
  'x-static-large-object',
];

/**
 * Expiry headers Swift accepts on any write, refused on grants: an object that deletes itself
 * would let a sender make a file vanish from a package already sent. The server never asks
 * for object expiry; it removes a package's objects itself when the package ends.
 */
const EXPIRY_HEADERS = ['x-delete-at', 'x-delete-after'];

/** Sends a response with the CORS headers Swift adds for an allowed origin. */
export function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Pick<ObjectRequest, 'cors' | 'container'>,
  status: number,
  headers: Record<string, string>,
  body?: string | Readable,
): FastifyReply {
  const origin = request.headers.origin;
  const cors = corsResponseHeaders(context.cors, context.container, origin, Object.keys(headers));
  reply.code(status).headers({ ...headers, ...cors });
  if (request.method === 'HEAD') return reply.send();
  return reply.send(body ?? '');
}

const TEXT: Readonly<Record<string, string>> = { 'content-type': 'text/plain; charset=utf-8' };

/**
 * 507, as Swift's object servers answer for a full drive, once the rest of the body is read and
 * dropped: clients that send the whole body before they read (browsers' XHR, Node's fetch,
 * Python's http.client) would otherwise meet a closed connection and never see the answer
 * (Node's fetch reports EPIPE), so they would retry instead of waiting for space. Nothing of it is
 * written. A body that cannot be read to its end (the client went away) closes the connection.
 */
export async function insufficientStorage(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Pick<ObjectRequest, 'cors' | 'container'>,
  body = `${FULL}\n`,
): Promise<FastifyReply> {
  await dropRestOfBody(request.raw);
  if (!request.raw.readableEnded) reply.header('connection', 'close');
  return answer(request, reply, context, 507, TEXT, body);
}

/** Reads what is left of a request body into nothing; settles when it ends or breaks off. */
function dropRestOfBody(
  body: NodeJS.ReadableStream & { readableEnded: boolean; destroyed: boolean },
) {
  if (body.readableEnded || body.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    body.once('end', () => resolve());
    body.once('close', () => resolve());
    body.once('error', () => resolve());
    body.resume();
  });
}

function unauthorized(request: FastifyRequest, reply: FastifyReply, context: ObjectRequest) {
  return answer(request, reply, context, 401, TEXT, '401 Unauthorized: Temp URL invalid\n');
}

function notFound(request: FastifyRequest, reply: FastifyReply, context: ObjectRequest) {
  return answer(request, reply, context, 404, TEXT, 'Not Found\n');
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function httpDate(ms: number): string {
  // Swift rounds the timestamp up to whole seconds for Last-Modified.
  return new Date(Math.ceil(ms / 1000) * 1000).toUTCString();
}

function objectHeaders(record: ObjectRecord, viaTempUrl: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': record.contentType,
    'accept-ranges': 'bytes',
    'last-modified': httpDate(record.lastModified),
    'x-timestamp': (record.lastModified / 1000).toFixed(5),
    ...metadataHeaders(record.metadata, viaTempUrl),
  };
  if (record.manifest) {
    headers.etag = `"${record.manifest.sloEtag}"`;
    headers['x-static-large-object'] = 'True';
    headers['x-manifest-etag'] = record.etag;
  } else {
    headers.etag = record.etag;
  }
  if (record.deleteAt !== undefined) headers['x-delete-at'] = String(record.deleteAt);
  return headers;
}

/** TempURL GET and HEAD: whole object or one range, manifests joined. */
export async function serveObject(
  request: FastifyRequest,
  reply: FastifyReply,
  context: ObjectRequest,
) {
  const verdict = verifyTempUrl(
    request.method,
    context.target,
    context.query,
    context.keys,
    context.digests,
  );
  if (!verdict.valid) return unauthorized(request, reply, context);
  const location = { container: context.target.container, key: context.target.key };
  const opened = context.container ? await context.store.openObject(location) : null;
  if (!opened) return notFound(request, reply, context);

  const { record } = opened;
  const total = objectLength(record);
  const headers = objectHeaders(record, true);
  // On the app's origin a stored type (text/html) or Swift's `inline` would let a browser render
  // bytes a grant's holder chose, as the app: every object is an attachment of a type no
  // browser renders; `filename` (unsigned, as in Swift) may only name it.
  headers['content-type'] = 'application/octet-stream';
  const name = context.target.key.replace(/\/+$/, '').split('/').pop() ?? '';
  headers['content-disposition'] = contentDisposition(verdict.filename ?? name);
  headers.expires = new Date(verdict.expires * 1000).toUTCString();

  // Conditions come before the range, as in Swift: a stale If-Match gets 412, not bytes.
  if (!ifMatchAllows(headerText(request.headers['if-match']), objectEtag(record))) {
    await opened.handle.close();
    return answer(request, reply, context, 412, TEXT, 'Precondition Failed\n');
  }
  const decision = decideRange(request.headers.range, total);
  if (decision.kind === 'unsatisfiable') {
    await opened.handle.close();
    headers['content-range'] = `bytes */${total}`;
    return answer(
      request,
      reply,
      context,
      416,
      { ...headers, ...TEXT },
      'Requested Range Not Satisfiable\n',
    );
  }
  const range = decision.kind === 'partial' ? decision.range : { offset: 0, length: total };
  headers['content-length'] = String(range.length);
  const status = decision.kind === 'partial' ? 206 : 200;
  if (status === 206) headers['content-range'] = contentRange(range, total);
  if (request.method === 'HEAD') {
    await opened.handle.close();
    return answer(request, reply, context, status, headers);
  }
  let body: Readable;
  try {
    body = await openObjectStream(context.store, opened, range.offset, range.length);
  } catch (error) {
    if (!(error instanceof SegmentError)) throw error;
    request.log.warn({ err: error }, 'manifest segment unavailable');
    return answer(request, reply, context, 409, TEXT, 'Conflict\n');
  }
  return answer(request, reply, context, status, headers, body);
}

/** TempURL PUT: the body streams into an atomic write; the ETag header, if sent, must match. */
export async function storeObject(
  request: FastifyRequest,
  reply: FastifyReply,
  context: ObjectRequest,
) {
  const verdict = verifyTempUrl(
    'PUT',
    context.target,
    context.query,
    context.keys,
    context.digests,
  );
  if (!verdict.valid) return unauthorized(request, reply, context);
  const refuse = (status: number, message: string, closeConnection = true) => {
    // The body was not read: the connection cannot carry another request.
    if (closeConnection) reply.header('connection', 'close');
    return answer(request, reply, context, status, TEXT, `${message}\n`);
  };
  if (!context.container) return refuse(404, 'Not Found');
  if (await context.isSealed(context.target.key)) return refuse(403, SEALED.trim());
  const headers = request.headers;
  for (const name of DISALLOWED_TEMPURL_HEADERS) {
    if (headers[name] !== undefined)
      return refuse(400, `The header '${name}' is not allowed in this tempurl`);
  }
  for (const name of EXPIRY_HEADERS) {
    if (headers[name] !== undefined)
      return refuse(400, `The header '${name}' is not allowed: objects of a package never expire`);
  }
  const lengthHeader = headers['content-length'];
  const chunked = (headers['transfer-encoding'] ?? '').toLowerCase().includes('chunked');
  if (lengthHeader === undefined && !chunked) return refuse(411, 'Length Required');
  const expectedLength = lengthHeader === undefined ? undefined : Number(lengthHeader);
  if (expectedLength !== undefined && expectedLength > MAX_OBJECT_BYTES) {
    return refuse(413, 'Your request is too large.');
  }
  const metadata = objectMetadataFrom(headers);
  if (!metadata.ok) return refuse(400, metadata.problem);
  const etagHeader = headers.etag;
  const expectedEtag = typeof etagHeader === 'string' ? etagHeader.replace(/"/g, '') : undefined;

  const key = context.target.key;
  const admitted = await context.admitWrite(key, expectedLength);
  if ('refused' in admitted) {
    return refuse(
      admitted.status,
      `${admitted.status === 403 ? 'Forbidden' : 'Your request is too large'}: ${admitted.refused}`,
    );
  }
  const admission = await context.freeSpace?.admit(expectedLength ?? 0);
  if (admission?.admitted === false) {
    admitted.settle(null);
    return insufficientStorage(request, reply, context);
  }
  let stored: ObjectRecord | null = null;
  try {
    stored = await context.store.writeObject(
      { container: context.target.container, key },
      {
        key,
        contentType: headers['content-type'] || 'application/octet-stream',
        metadata: metadata.metadata,
      },
      request.raw,
      {
        maxBytes: admitted.maxBytes,
        ...(expectedLength !== undefined ? { expectedLength } : {}),
        ...(expectedEtag !== undefined ? { expectedEtag } : {}),
        publishUnlessSealed: (publish) => context.publishUnlessSealed(key, publish),
      },
    );
    return answer(request, reply, context, 201, {
      etag: stored.etag,
      'last-modified': httpDate(stored.lastModified),
      'content-type': 'text/html; charset=UTF-8',
      'content-length': '0',
    });
  } catch (error) {
    if (!(error instanceof ObjectWriteError)) throw error;
    if (error.reason === 'too_large') return refuse(413, 'Your request is too large.');
    if (error.reason === 'etag_mismatch') return refuse(422, 'Unprocessable Entity', false);
    if (error.reason === 'sealed') return refuse(403, SEALED.trim(), false);
    if (error.reason === 'no_space') return insufficientStorage(request, reply, context);
    return refuse(499, 'Client Closed Request');
  } finally {
    admitted.settle(stored);
    admission?.release();
  }
}

/** TempURL DELETE: removes the object only (Swift drops multipart-manifest=delete from TempURLs). */
export async function removeObject(
  request: FastifyRequest,
  reply: FastifyReply,
  context: ObjectRequest,
) {
  const verdict = verifyTempUrl(
    'DELETE',
    context.target,
    context.query,
    context.keys,
    context.digests,
  );
  if (!verdict.valid) return unauthorized(request, reply, context);
  if (context.container !== null && (await context.isSealed(context.target.key))) {
    return answer(request, reply, context, 403, TEXT, SEALED);
  }
  const removed =
    context.container !== null &&
    (await context.store.removeObject({
      container: context.target.container,
      key: context.target.key,
    }));
  if (!removed) return notFound(request, reply, context);
  return answer(request, reply, context, 204, {});
}
