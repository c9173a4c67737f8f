import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import type { SignatureDigest } from '../storage-driver';
import { formPostMessage, verifySignature } from '../signing';
import { ObjectWriteError, type ObjectRecord } from './object-file';
import type { ObjectFileStore } from './object-file-store';
import { invalidObjectName } from './object-path';
import type { StoreTarget } from './store-request';
import { objectTooLarge, type AdmittedWrite, type RefusedWrite } from './write-allowance';

/**
 * Swift's FormPost (swift/common/middleware/formpost.py): a browser form uploads several
 * files at once under a signed prefix. Parts are handled in order; the signature fields must
 * come before the first file. Each file streams into its own atomic object write; like
 * Swift, files stored before a failing one stay stored.
 */

/** Swift's MAX_VALUE_LENGTH: longer field values are cut. */
const MAX_FIELD_BYTES = 4096;
const STREAM_CHUNK_BYTES = 1024 * 1024;

export interface FormPostResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The request body was not read to its end: the connection must not be reused. */
  readonly closeConnection: boolean;
}

export interface FormPostContext {
  readonly store: ObjectFileStore;
  readonly target: StoreTarget;
  readonly keys: readonly string[];
  readonly allowedDigests: readonly SignatureDigest[];
  readonly containerExists: boolean;
  /** Whether a key lies under a sealed prefix, where no file may be stored any more. */
  readonly isSealed: (key: string) => Promise<boolean>;
  /** Lets in a file of the form as an object write (its length is never known ahead), or not. */
  readonly admitWrite: (
    key: string,
    length: number | undefined,
  ) => Promise<AdmittedWrite | RefusedWrite>;
  /** Publishes a file unless its key is sealed by then (false), as one step against sealing. */
  readonly publishUnlessSealed: (key: string, publish: () => Promise<void>) => Promise<boolean>;
  /** Told about failures that are the store's fault, not the request's. */
  readonly onError: (error: unknown) => void;
}

/** An outcome that ends the form at once, answered without the redirect (Swift's exceptions). */
class FormRefused extends Error {
  constructor(
    readonly status: 400 | 401 | 413 | 507,
    message: string,
  ) {
    super(message);
  }
}

/** Python's str.title(), which Swift applies to its messages. */
function title(text: string): string {
  return text.replace(/[A-Za-z]+/g, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());
}

/** Python's `value.rstrip('\r\n--')`, which Swift applies to every field value. */
function stripFieldValue(value: string): string {
  return value.replace(/[\r\n-]+$/, '');
}

function integerField(attributes: Map<string, string>, name: string, errorName: string): number {
  const text = attributes.get(name) || '0';
  if (!/^\s*[-+]?\d+\s*$/.test(text)) throw new FormRefused(400, `${errorName} not an integer`);
  return Number(text);
}

/** The object key for a file part: Swift appends the filename to the POST path. */
function objectKeyFor(target: StoreTarget, filename: string): string {
  let path = target.path;
  if (!path.endsWith('/') && path.split('/').length - 1 < 4) path += '/';
  const containerPath = `/v1/${target.account}/${target.container}/`;
  return (path + filename).slice(containerPath.length);
}

export function handleFormPost(
  request: IncomingMessage,
  context: FormPostContext,
): Promise<FormPostResponse> {
  return new Promise((resolve) => {
    const attributes = new Map<string, string>();
    let fileCount = 0;
    let status = '';
    let message = '';
    let finished = false;
    let current: Readable | null = null;
    let queue = Promise.resolve();

    const respond = (response: Omit<FormPostResponse, 'closeConnection'>) => {
      if (finished) return;
      finished = true;
      request.unpipe(busboy);
      resolve({ ...response, closeConnection: !request.readableEnded });
    };
    const refuse = (error: FormRefused) =>
      respond({
        status: error.status,
        headers: { 'content-type': 'text/plain' },
        body: `FormPost: ${error.status === 400 ? error.message : title(error.message)}`,
      });

    const finalResponse = () => {
      if (!status) {
        status = '400 Bad Request';
        message = 'no files to process';
      }
      const redirect = attributes.get('redirect');
      if (!redirect) {
        const body = message ? `${status}\r\nFormPost: ${title(message)}` : status;
        respond({
          status: Number(status.slice(0, 3)),
          headers: { 'content-type': 'text/plain' },
          body,
        });
        return;
      }
      const location =
        `${redirect}${redirect.includes('?') ? '&' : '?'}` +
        `status=${status.slice(0, 3)}&message=${encodeURIComponent(message)}`;
      respond({
        status: 303,
        headers: { location, 'content-type': 'text/html; charset=UTF-8' },
        body: `<html><body><p><a href="${location}">Click to continue...</a></p></body></html>`,
      });
    };

    const storeFile = async (
      file: BusboyFileStream,
      filename: string,
      partType: string,
      fields: Map<string, string>,
      count: number,
    ): Promise<void> => {
      // Swift stops at the first file that was not stored; later files are only drained.
      if (finished || (status !== '' && !status.startsWith('2'))) {
        file.resume();
        return;
      }
      if (count > integerField(fields, 'max_file_count', 'max_file_count')) {
        status = '400 Bad Request';
        message = 'max file count exceeded';
        file.resume();
        return;
      }
      const maxFileSize = integerField(fields, 'max_file_size', 'max_file_size');
      if (integerField(fields, 'expires', 'expired') < Date.now() / 1000) {
        throw new FormRefused(401, 'form expired');
      }
      const signed = formPostMessage(
        context.target.path,
        fields.get('redirect') ?? '',
        fields.get('max_file_size') || '0',
        fields.get('max_file_count') || '0',
        fields.get('expires') || '0',
      );
      const signature = fields.get('signature') ?? '';
      if (!verifySignature(signature, signed, context.keys, context.allowedDigests)) {
        throw new FormRefused(401, 'invalid signature');
      }
      const key = objectKeyFor(context.target, filename);
      if (!context.containerExists) {
        status = '404 Not Found';
        file.resume();
        return;
      }
      if (invalidObjectName(key)) {
        status = '400 Bad Request';
        file.resume();
        return;
      }
      if (await context.isSealed(key)) {
        status = '403 Forbidden';
        message = 'this object is sealed and can no longer change';
        file.resume();
        return;
      }
      // Swift would make the object expire; an object that deletes itself would let a sender
      // make a file vanish from a package already sent, so the fields are refused.
      for (const name of ['x_delete_at', 'x_delete_after']) {
        if (fields.has(name)) throw new FormRefused(400, `${name} is not allowed`);
      }
      const admitted = await context.admitWrite(key, undefined);
      if ('refused' in admitted) {
        status = admitted.status === 403 ? '403 Forbidden' : '413 Request Entity Too Large';
        message = admitted.refused;
        file.resume();
        return;
      }
      current = file;
      let stored: ObjectRecord | null = null;
      try {
        stored = await context.store.writeObject(
          { container: context.target.container, key },
          {
            key,
            contentType: fields.get('content-type') || partType || 'application/octet-stream',
            metadata: {},
          },
          file,
          {
            maxBytes: Math.min(maxFileSize, admitted.maxBytes),
            publishUnlessSealed: (publish) => context.publishUnlessSealed(key, publish),
          },
        );
      } catch (error) {
        if (error instanceof ObjectWriteError && error.reason === 'too_large') {
          // Past the grant's max_file_size as Swift says it; past the declaration in our words.
          if (admitted.maxBytes >= maxFileSize)
            throw new FormRefused(400, 'max_file_size exceeded');
          throw new FormRefused(413, objectTooLarge);
        }
        if (error instanceof ObjectWriteError && error.reason === 'sealed') {
          status = '403 Forbidden';
          message = 'this object is sealed and can no longer change';
          return;
        }
        // The volume filled up under this file: it is not stored, nor are the ones after it.
        if (error instanceof ObjectWriteError && error.reason === 'no_space') {
          throw new FormRefused(507, 'insufficient storage');
        }
        throw error;
      } finally {
        current = null;
        admitted.settle(stored);
      }
      status = '201 Created';
    };

    let busboy: ReturnType<typeof Busboy>;
    try {
      busboy = Busboy({
        headers: request.headers as { 'content-type': string },
        preservePath: true,
        // Swift treats a part as a file only when it has a non-empty filename.
        isPartAFile: (_field, _type, filename) => Boolean(filename),
        highWaterMark: STREAM_CHUNK_BYTES,
        fileHwm: STREAM_CHUNK_BYTES,
        limits: { fieldSize: MAX_FIELD_BYTES, fieldNameSize: 1024, headerPairs: 100 },
      });
    } catch {
      resolve({
        status: 400,
        headers: { 'content-type': 'text/plain' },
        body: 'FormPost: invalid starting boundary',
        closeConnection: true,
      });
      return;
    }
    busboy.on('field', (name: string, value: string) => {
      attributes.set(name.toLowerCase(), stripFieldValue(value));
    });
    const onFailure = (error: unknown) => {
      if (error instanceof FormRefused) refuse(error);
      else if (error instanceof ObjectWriteError) refuse(new FormRefused(400, error.message));
      else {
        context.onError(error);
        respond({
          status: 503,
          headers: { 'content-type': 'text/plain' },
          body: 'FormPost: the object could not be stored',
        });
      }
    };
    busboy.on('file', (_field, file, filename, _encoding, mimeType) => {
      // A client that goes away destroys the file being written with an error. The write sees it
      // through its own listeners once it reads the file, but it first opens its temp file: an
      // error in that moment must not be an uncaught exception that ends the server.
      file.on('error', () => undefined);
      fileCount++;
      const fields = new Map(attributes);
      const count = fileCount;
      // Files are stored one after another; a failure answers at once and later files are
      // only drained (they would not be stored by Swift either).
      queue = queue.then(() =>
        finished
          ? void file.resume()
          : storeFile(file, filename, mimeType, fields, count).catch(onFailure),
      );
    });
    busboy.on('finish', () => {
      void queue.then(() => {
        if (!finished) finalResponse();
      });
    });
    busboy.on('error', () => {
      current?.destroy(new Error('malformed multipart body'));
      refuse(new FormRefused(400, 'invalid multipart body'));
    });
    request.on('close', () => {
      if (request.readableEnded) return;
      // The client is gone: stop the file being written and settle (nobody reads the answer).
      current?.destroy(new Error('client went away'));
      refuse(new FormRefused(400, 'the request ended early'));
    });
    request.pipe(busboy);
  });
}
