import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FreeSpace } from '../free-space';
import { sandboxBytes } from '../sandboxed-bytes';
import type { SignatureDigest } from '../storage-driver';
import { preflight, type CorsPolicy } from './cors';
import {
  cutResponseBody,
  INJECTED_UNAVAILABLE_BODY,
  injectFault,
  type StoreFaults,
} from './faults';
import { handleFormPost } from './formpost';
import {
  answer,
  insufficientStorage,
  removeObject,
  serveObject,
  storeObject,
  type ObjectRequest,
} from './object-handlers';
import { MAX_OBJECT_BYTES, ObjectFileStore } from './object-file-store';
import { invalidContainerName, invalidObjectName } from './object-path';
import { parseStoreUrl } from './store-request';
import { PrefixBudgets, type WriteAdmission } from './write-allowance';

export interface EmbeddedStoreOptions {
  /** The store's directory, normally `<DATA_DIR>/objects`. */
  readonly root: string;
  /** The account path segment, e.g. `AUTH_filerunner` (URLs are `/v1/<account>/...`). */
  readonly account: string;
  /** The secret TempURL and FormPost signatures are made with. */
  readonly tempUrlKey: string;
  /** Browser origins allowed by CORS in every container (like Swift's `cors_allow_origin`). */
  readonly allowedOrigin?: string | readonly string[];
  /** Digests accepted in signatures; Swift's default set when omitted. */
  readonly allowedDigests?: readonly SignatureDigest[];
  /**
   * Whether an object lies under a sealed prefix (a sent package's): grants may no longer
   * write it (PUT, FormPost) or delete it, whatever their expiry; they answer 403. Asked for
   * every such request, so it must answer from state shared by every process serving the
   * store. Nothing is sealed when omitted.
   */
  readonly isSealed?: (container: string, key: string) => Promise<boolean>;
  /**
   * What a grant may still write to an object (asked for every TempURL PUT and every FormPost
   * file): refused, or at most so many bytes, within a budget shared by the objects under a
   * prefix. Null, or omitted, leaves only the store's own limits.
   */
  readonly admitWrite?: (container: string, key: string) => Promise<WriteAdmission | null>;
  /**
   * Publishes a finished write (`publish`, a rename) unless the object is sealed by then; false
   * when it was. It must keep the seal from being set between its check and the rename, or a
   * write can land just after its package was sent. When omitted, isSealed is asked, then the
   * write published.
   */
  readonly publishUnlessSealed?: (
    container: string,
    key: string,
    publish: () => Promise<void>,
  ) => Promise<boolean>;
  /**
   * Faults to inject into object requests (not CORS preflights), for transfer tests; the
   * caller keeps the object and may change its settings at any time.
   */
  readonly faults?: StoreFaults;
  /**
   * The volume's free-space floor: new objects (PUT, FormPost) are refused with 507 while the
   * volume is under it, so what else shares the volume (the embedded database) never runs out
   * first. Nothing is refused before the volume is full when omitted.
   */
  readonly freeSpace?: FreeSpace;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' };

/**
 * The embedded object store: the subset of OpenStack Swift's object API that browsers use
 * (TempURL GET/HEAD/PUT/DELETE, FormPost, Range, CORS), served from local disk under
 * `/v1/<account>/<container>/<object>`. Unlike Swift, it serves every object as an
 * `application/octet-stream` attachment and every answer sandboxed (`sandboxBytes`), whatever
 * the object's stored type or the query's `inline`: it shares the app's origin. Authenticated operations (manifests, deletes,
 * containers) are EmbeddedDriver methods, not HTTP calls.
 *
 * Register it without a prefix (signed paths begin with /v1/). In its encapsulated scope it
 * drops the inherited body parsers and installs one that hands the raw request stream to the
 * handlers, so uploads of any type and size stream to disk without being buffered. Hooks
 * the app adds at the root (session auth, rate limits, CSRF checks) would also run here:
 * register those in the API's own scope, not the root.
 */
export async function embeddedStorePlugin(
  instance: FastifyInstance,
  options: EmbeddedStoreOptions,
): Promise<void> {
  const store = new ObjectFileStore(options.root, options.account);
  await store.prepare();
  const budgets = new PrefixBudgets(store);
  const keys = [options.tempUrlKey];
  const digests = options.allowedDigests ?? ['sha1', 'sha256', 'sha512'];
  const origin = options.allowedOrigin ?? [];
  const cors: CorsPolicy = { storeOrigins: typeof origin === 'string' ? [origin] : origin };

  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (_request, _payload, done) => done(null));

  // The store answers on the app's origin: nothing it sends may run there (objects, errors alike).
  instance.addHook('onSend', sandboxBytes);
  const faults = options.faults;
  if (faults) instance.addHook('onSend', cutResponseBody);

  instance.setErrorHandler((error, request, reply) => {
    // Fastify's own 4xx (e.g. an unparseable Content-Type) keep their status.
    const { statusCode: status, message } = error as { statusCode?: number; message?: string };
    if (status !== undefined && status >= 400 && status < 500) {
      return reply
        .code(status)
        .headers(TEXT)
        .send(`${message ?? 'Bad Request'}\n`);
    }
    // A full volume is no fault of the store's code: the client waits for space, as after a 507.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      request.log.warn({ err: error }, 'embedded store: the volume is full');
      return insufficientStorage(request, reply, { cors, container: null });
    }
    // A client that goes away mid-body (a cancelled or interrupted upload) is not a fault of
    // the store: the engine sends the object again.
    if (request.raw.aborted || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      request.log.info({ err: error }, 'embedded store request ended by the client');
    } else {
      request.log.error({ err: error }, 'embedded store failure');
    }
    return reply.code(500).headers(TEXT).send('Internal Server Error\n');
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = parseStoreUrl(request.raw.url ?? '');
    if (!parsed) return reply.code(400).headers(TEXT).send('Invalid path\n');
    const { target, query } = parsed;
    if (target.account !== options.account)
      return reply.code(404).headers(TEXT).send('Not Found\n');
    const nameProblem =
      invalidContainerName(target.container) ?? (target.key ? invalidObjectName(target.key) : null);
    if (nameProblem) {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        reply.header('connection', 'close');
      return reply.code(400).headers(TEXT).send(`${nameProblem}\n`);
    }
    const context: ObjectRequest = {
      store,
      keys,
      digests,
      cors,
      target,
      query,
      container: await store.readContainer(target.container),
      isSealed: async (key) => (await options.isSealed?.(target.container, key)) ?? false,
      admitWrite: async (key, length) => {
        const admission = (await options.admitWrite?.(target.container, key)) ?? {
          maxBytes: MAX_OBJECT_BYTES,
        };
        return budgets.admit(target.container, key, admission, length);
      },
      publishUnlessSealed: async (key, publish) => {
        if (options.publishUnlessSealed) {
          return options.publishUnlessSealed(target.container, key, publish);
        }
        if (await options.isSealed?.(target.container, key)) return false;
        await publish();
        return true;
      },
      freeSpace: options.freeSpace ?? null,
    };
    // A browser reports a failed preflight as a CORS error, never as the status the engine
    // must react to, so faults start at the object request itself.
    const decision = request.method === 'OPTIONS' ? null : faults?.decide();
    if (decision) {
      const unavailable = () =>
        answer(request, reply, context, 503, TEXT, INJECTED_UNAVAILABLE_BODY);
      if (await injectFault(request, reply, decision, unavailable)) return reply;
    }

    switch (request.method) {
      case 'OPTIONS': {
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        };
        const result = preflight(cors, context.container, {
          origin: header('origin'),
          requestMethod: header('access-control-request-method'),
          requestHeaders: header('access-control-request-headers'),
        });
        return reply.code(result.status).headers(result.headers).send();
      }
      case 'POST':
        return formPost(request, reply, context);
      case 'GET':
      case 'HEAD':
        // A container listing needs an auth token, which the embedded store never grants.
        if (!target.key) return answer(request, reply, context, 401, TEXT, 'Unauthorized\n');
        return serveObject(request, reply, context);
      case 'PUT':
        if (!target.key) return answer(request, reply, context, 401, TEXT, 'Unauthorized\n');
        return storeObject(request, reply, context);
      case 'DELETE':
        if (!target.key) return answer(request, reply, context, 401, TEXT, 'Unauthorized\n');
        return removeObject(request, reply, context);
      default:
        return answer(request, reply, context, 405, TEXT, 'Method Not Allowed\n');
    }
  };

  instance.route({
    method: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS'],
    url: `/v1/${options.account}/*`,
    exposeHeadRoute: false,
    // Bodies never pass through a parser here; the limit only documents the largest object.
    bodyLimit: MAX_OBJECT_BYTES,
    handler,
  });
}

const MULTIPART = /^multipart\/form-data\s*;.*boundary=/i;

async function formPost(request: FastifyRequest, reply: FastifyReply, context: ObjectRequest) {
  if (!MULTIPART.test(request.headers['content-type'] ?? '')) {
    // Swift passes a POST that is not a form on to auth, which refuses it.
    reply.header('connection', 'close');
    return answer(request, reply, context, 401, TEXT, 'Unauthorized\n');
  }
  // The form's length stands for its files': every byte of it may become an object.
  const length = Number(request.headers['content-length'] ?? 0);
  const admission = await context.freeSpace?.admit(Number.isFinite(length) ? length : 0);
  if (admission?.admitted === false) {
    return insufficientStorage(request, reply, context, 'FormPost: Insufficient Storage');
  }
  const result = await handleFormPost(request.raw, {
    store: context.store,
    target: context.target,
    keys: context.keys,
    allowedDigests: context.digests,
    containerExists: context.container !== null,
    isSealed: context.isSealed,
    admitWrite: context.admitWrite,
    publishUnlessSealed: context.publishUnlessSealed,
    onError: (error) => request.log.error({ err: error }, 'FormPost could not store a file'),
  }).finally(() => admission?.release());
  // A form the volume filled up under: its answer is read like any 507's (see insufficientStorage).
  if (result.status === 507) return insufficientStorage(request, reply, context, result.body);
  if (result.closeConnection) reply.header('connection', 'close');
  return answer(request, reply, context, result.status, result.headers, result.body);
}
