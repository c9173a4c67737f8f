import { createHash, randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

const CHUNK_BYTES = 1024 * 1024;

/**
 * A large body made on the fly (never held whole): one random 1 MiB block, each copy stamped
 * with its index so misordered or repeated chunks change the MD5. `md5()` is known once the
 * stream has been read to the end.
 */
export function generatedBody(totalBytes: number): { stream: Readable; md5: () => string } {
  const block = randomBytes(CHUNK_BYTES);
  const hash = createHash('md5');
  let digest = '';
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let sent = 0, index = 0; sent < totalBytes; index++) {
      const size = Math.min(CHUNK_BYTES, totalBytes - sent);
      const chunk = Buffer.from(block.subarray(0, size));
      if (size >= 8) chunk.writeBigUInt64BE(BigInt(index), 0);
      hash.update(chunk);
      sent += size;
      yield chunk;
    }
    digest = hash.digest('hex');
  }
  return { stream: Readable.from(chunks(), { objectMode: false }), md5: () => digest };
}

/** PUTs a stream with a Content-Length and resolves with the response (body drained). */
export function putStream(url: string, body: Readable, length: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'PUT', headers: { 'content-length': String(length) } },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res));
      },
    );
    req.once('error', reject);
    body.pipe(req);
  });
}

/** GETs a URL and returns status, byte count and MD5 of the body without keeping it. */
export function getDigest(url: string): Promise<{ status: number; bytes: number; md5: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const hash = createHash('md5');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes, md5: hash.digest('hex') }),
      );
      res.once('error', reject);
    })
      .once('error', reject)
      .end();
  });
}
