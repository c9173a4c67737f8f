import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NoAnswerError } from '@filerunner/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchHttpClient } from './fetch-http-client';

// The download client over Node's own fetch, against a small server that answers ranges slowly,
// never answers, or cuts its answer: what the client must make of each.
const BYTES = new Uint8Array(256 * 1024).map((_, i) => (i * 7) % 251);
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://test');
    if (pathname === '/silent/token/a.tar') return; // headers never come
    if (pathname === '/cut/token/a.tar') {
      response.writeHead(200, { 'content-length': String(BYTES.length) });
      response.write(BYTES.subarray(0, 1000), () => response.destroy());
      return;
    }
    const [, start, end] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '') ?? [];
    const range = BYTES.subarray(Number(start), Number(end) + 1);
    response.writeHead(206, { 'content-range': `bytes ${start}-${end}/${BYTES.length}` });
    // In pieces, apart in time, so the client's stream gives them as they come.
    let sent = 0;
    const next = () => {
      if (sent >= range.length) return void response.end();
      response.write(range.subarray(sent, sent + 16 * 1024));
      sent += 16 * 1024;
      setTimeout(next, 5);
    };
    next();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the download client over fetch', () => {
  it('streams a ranged answer piece by piece', async () => {
    const client = new FetchHttpClient();
    const response = await client.request({
      method: 'GET',
      url: `${base}/ranged/token/a.tar`,
      headers: { range: 'bytes=1000-100999' },
    });
    expect(response.status).toBe(206);
    expect(response.header('Content-Range')).toBe(`bytes 1000-100999/${BYTES.length}`);
    const pieces: Uint8Array[] = [];
    for await (const piece of response.body!()) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces)).toEqual(Buffer.from(BYTES.subarray(1000, 101_000)));
  });

  it('times out when no headers come in time, without naming the credential in the URL', async () => {
    const client = new FetchHttpClient();
    const failure = await client
      .request({ method: 'GET', url: `${base}/silent/token/a.tar`, timeoutMs: 300 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NoAnswerError);
    expect((failure as NoAnswerError).code).toBe('TIMEOUT');
    expect((failure as Error).message).not.toContain('token');
    expect((failure as Error).message).toContain('a.tar');
  });

  it('answers a refused connection and a body cut short as network errors', async () => {
    const client = new FetchHttpClient();
    const closed = await client
      .request({ method: 'GET', url: 'http://127.0.0.1:9/token/a.tar' })
      .catch((error: unknown) => error);
    expect((closed as NoAnswerError).code).toBe('NETWORK_ERROR');

    const response = await client.request({ method: 'GET', url: `${base}/cut/token/a.tar` });
    expect(response.status).toBe(200);
    const reading = (async () => {
      for await (const _ of response.body!()) void _;
    })();
    const cut = await reading.catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(NoAnswerError);
    expect((cut as NoAnswerError).code).toBe('NETWORK_ERROR');
  });

  it('ends a read when the download is cancelled, with the cancel reason', async () => {
    const client = new FetchHttpClient();
    const cancel = new AbortController();
    const response = await client.request({
      method: 'GET',
      url: `${base}/ranged/token/a.tar`,
      headers: { range: `bytes=0-${BYTES.length - 1}` },
      signal: cancel.signal,
    });
    const reader = response.body!().getReader();
    await reader.read();
    cancel.abort(new Error('cancelled by the person'));
    const ended = await (async () => {
      for (;;) if ((await reader.read()).done) return 'done';
    })().catch((error: unknown) => error);
    expect((ended as Error).message).toBe('cancelled by the person');
  });
});
