import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { downloadRoutes, isPackagePath } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/routes';
import { contentRange, decideRange, type RangeDecision } from '../../storage/byte-range';
import {
  cutResponseBody,
  injectFault,
  INJECTED_UNAVAILABLE_BODY,
  sandboxBytes,
} from '../../storage';
import { packageNotFound } from './downloads.policy';
import { voidChallenge } from '../receipts';
import {
  grantFileDownload,
  grantPackageDownload,
  openDownload,
  recordDownload,
  type ServableDownload,
} from './downloads.service';
import type { Delivery } from './downloads.repository';

/**
 * Downloads: a logged-in recipient asks for a grant (the whole package as a tar, or one file),
 * then fetches its URL with any downloader, whole or in ranged chunks, without a session.
 */
export async function downloadsRoutes(app: FastifyInstance, opts: { ctx: AppContext }) {
  const { ctx } = opts;

  serve(app, downloadRoutes.packageGrant, async (request) =>
    grantPackageDownload(ctx, requireUser(request), request.params.slug, request.ip),
  );

  serve(app, downloadRoutes.fileGrant, async (request) => {
    const principal = requireUser(request);
    const rest = request.params['*'];
    // The external page's form of the call ends in '/'; a user path never does.
    const userPath = rest.endsWith('/') ? rest.slice(0, -1) : rest;
    if (!isPackagePath(userPath)) throw packageNotFound();
    return grantFileDownload(ctx, principal, request.params.slug, userPath, request.ip);
  });

  serve(
    app,
    downloadRoutes.download,
    async (request, reply) => {
      const download = await openDownload(ctx, request.params.token);
      // Bytes served after a receipt challenge was asked must not answer it (receipts/).
      if (request.method === 'GET') await voidChallenge(ctx.db, download.recipientId);
      return sendDownload(ctx, request, reply, download, (delivery) =>
        recordDownload(ctx, download, delivery),
      );
    },
    { fastify: { onSend: downloadOnSend } },
  );
}

/**
 * Answers a request for a download's bytes: HEAD, the whole body, or the one range asked (with
 * If-Range). `record` hears of each response once its connection closes, with what was
 * delivered; a sender's own copy records nothing (no recipient received it).
 */
export async function sendDownload(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  download: ServableDownload,
  record: ((delivery: Delivery) => Promise<void>) | null,
): Promise<FastifyReply> {
  // The store's injected faults (tests only) reach downloads too: the app reads the store
  // directly, so its ranged answers would otherwise never fail, stall or be cut.
  const fault = request.method === 'GET' ? ctx.storeFaults?.decide() : null;
  if (fault) {
    const unavailable = () =>
      reply.code(503).type('text/plain; charset=utf-8').send(INJECTED_UNAVAILABLE_BODY);
    if (await injectFault(request, reply, fault, unavailable)) return reply;
  }
  const decision = rangeOf(request, download);
  if (decision.kind === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${download.size}`).send();
  }
  const range = decision.kind === 'partial' ? decision.range : { offset: 0, length: download.size };
  const startedAt = new Date();
  // Read now: once a client cuts the connection, its socket no longer knows the address.
  const ip = request.ip;
  const body = request.method === 'HEAD' ? null : await download.body(range);
  reply
    .code(decision.kind === 'partial' ? 206 : 200)
    .header('accept-ranges', 'bytes')
    .header('etag', download.etag)
    .header('content-disposition', attachment(download.filename))
    .header('content-length', range.length)
    .type(download.contentType);
  if (decision.kind === 'partial') {
    reply.header('content-range', contentRange(range, download.size));
  }
  if (!body) return reply.send();

  // Tracked from the start, not from 'close': a stopping server must already see it pending
  // when its connections close, and wait for the record before the database closes.
  const closed = new Promise<void>((resolve) => reply.raw.once('close', resolve));
  const transferEnded = ctx.metrics.transferStarted('download');
  ctx.pendingWork.track(
    closed
      .then(() => {
        transferEnded();
        // A body written to its end delivered its range; a cut one delivered the prefix it
        // handed to the connection (what the body produced less what it still held), so a
        // download cut off and resumed covers the files it got whole before the cut. That
        // prefix can count what the kernel's socket buffers held when the peer went away (a
        // few MB at most): a file whose bytes did not all arrive is not closed by its client,
        // which fetches it again, and a file counts as delivered only when all of it was served.
        const whole = reply.raw.writableFinished && body.stream.readableEnded;
        const handed = whole
          ? range.length
          : Math.max(0, Math.min(range.length, body.bytesOut() - body.stream.readableLength));
        const files = whole ? download.filesEndingIn(range) : 0;
        ctx.metrics.moved('download', files, handed);
        return record?.({
          served: handed > 0 ? { start: range.offset, end: range.offset + handed } : null,
          bytes: handed,
          startedAt,
          ip,
        });
      })
      .catch((error: unknown) => request.log.error({ err: error }, 'download: not recorded')),
  );
  return reply.send(body.stream);
}

/** Runs after the API scope's hook, which would otherwise leave a bare `no-store`. */
export async function privateNoStore(_request: FastifyRequest, reply: FastifyReply) {
  reply.header('cache-control', 'private, no-store');
}

/**
 * The hooks of every download answer, errors included: private caching; the sandbox that keeps
 * a package's bytes (served as attachments of a type no browser renders: x-tar, octet-stream)
 * from ever running on the app's origin; and (tests only) a body cut or stalled.
 */
export const downloadOnSend = [privateNoStore, sandboxBytes, cutResponseBody];

/** The Range to serve; an If-Range naming other bytes than ours asks for the whole body. */
function rangeOf(request: FastifyRequest, download: ServableDownload): RangeDecision {
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== download.etag) return { kind: 'whole' };
  return decideRange(request.headers.range, download.size);
}

/**
 * Content-Disposition for a download: a plain quoted name when it is printable ASCII, else an
 * ASCII stand-in plus the real name as RFC 5987 `filename*`, which every current browser reads.
 */
export function attachment(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (fallback === filename) return `attachment; filename="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
