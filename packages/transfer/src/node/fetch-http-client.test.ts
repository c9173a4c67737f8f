import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchHttpClient } from './fetch-http-client';
import { fileSource } from './file-source';

interface Received {
  method: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

let server: Server;
let base: string;
let dir: string;
const received: Received[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fr-fetch-'));
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A slow reader: the client's writes wait in its socket rather than leave at once.
      if (request.url === '/slow') {
        request.pause();
        setTimeout(() => request.resume(), 1);
      }
    });
    request.on('end', () => {
      received.push({
        method: request.method!,
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      if (request.url?.startsWith('/never')) return;
      response.writeHead(request.url === '/busy' ? 503 : 201, { ETag: '"abc"' });
      response.end(request.url === '/busy' ? 'try later' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const http = new FetchHttpClient();
const last = () => received[received.length - 1]!;

/** The names of the files this process holds open (Linux). */
function openFiles() {
  return readdirSync('/proc/self/fd').map((fd) => {
    try {
      return path.basename(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      return ''; // closed meanwhile (the descriptor readdir itself used)
    }
  });
}

describe('FetchHttpClient', () => {
  it('streams a slice of a file with its length, telling progress up to the last byte', async () => {
    // Every byte differs from its neighbours', so a chunk sent from a stale buffer shows.
    const bytes = Buffer.alloc(24_000_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
    await writeFile(path.join(dir, 'clip.mov'), bytes);
    const source = await fileSource(path.join(dir, 'clip.mov'), 'clip.mov');
    const progress: number[] = [];
    const response = await http.request({
      method: 'PUT',
      url: `${base}/slow`,
      body: source.slice(10, 20_000_010),
      onUploadProgress: (sent) => progress.push(sent),
    });
    expect(response.status).toBe(201);
    expect(response.header('etag')).toBe('"abc"');
    expect(await response.text()).toBe('ok');
    expect(last().headers['content-length']).toBe('20000000');
    expect(last().body.equals(bytes.subarray(10, 20_000_010))).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toBe(20_000_000);
  });

  it('fails a PUT of a file edited since it was picked, so storage never gets a mix', async () => {
    await writeFile(path.join(dir, 'edited.mov'), Buffer.alloc(3_000_000, 1));
    const source = await fileSource(path.join(dir, 'edited.mov'), 'edited.mov');
    await writeFile(path.join(dir, 'edited.mov'), Buffer.alloc(3_000_000, 2));
    const before = received.length;
    await expect(
      http.request({ method: 'PUT', url: `${base}/object`, body: source.slice(0, 3_000_000) }),
    ).rejects.toThrow();
    expect(received.length).toBe(before);
  });

  it('sends a form with its fields first and files as parts a multipart parser reads', async () => {
    await http.request({
      method: 'POST',
      url: `${base}/form`,
      body: {
        fields: [
          ['redirect', ''],
          ['signature', 'sig"1'],
        ],
        files: [
          { field: 'file1', filename: 'a-1.txt', content: new Blob(['first file']) },
          { field: 'file2', filename: 'b-2.bin', content: new Blob([new Uint8Array([0, 1, 2])]) },
        ],
      },
    });
    const { headers, body } = last();
    const text = body.toString('latin1');
    expect(text.indexOf('name="signature"')).toBeLessThan(text.indexOf('name="file1"'));
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': headers['content-type']! },
    }).formData();
    expect(form.get('redirect')).toBe('');
    expect(form.get('signature')).toBe('sig"1');
    const first = form.get('file1') as File;
    expect(first.name).toBe('a-1.txt');
    expect(await first.text()).toBe('first file');
    expect(new Uint8Array(await (form.get('file2') as File).arrayBuffer())).toEqual(
      new Uint8Array([0, 1, 2]),
    );
  });

  it('sends JSON, and answers an error status instead of failing', async () => {
    const response = await http.request({
      method: 'POST',
      url: `${base}/busy`,
      headers: { 'x-client-version': 'test' },
      body: { json: { files: [1] } },
    });
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('try later');
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().headers['x-client-version']).toBe('test');
    expect(JSON.parse(last().body.toString())).toEqual({ files: [1] });
  });

  it('fails when no answer comes in time, or when aborted', async () => {
    await expect(
      http.request({ method: 'GET', url: `${base}/never?sig=secret`, timeoutMs: 200 }),
    ).rejects.toMatchObject({
      name: 'NoAnswerError',
      code: 'TIMEOUT',
      message: `GET ${base}/never: timed out`,
    });
    const controller = new AbortController();
    const pending = http.request({
      method: 'GET',
      url: `${base}/never`,
      signal: controller.signal,
    });
    controller.abort(new Error('paused'));
    await expect(pending).rejects.toThrow('paused');
  });

  it('stops sending a body when aborted, failing with the reason', async () => {
    await writeFile(path.join(dir, 'long.mov'), Buffer.alloc(20_000_000, 3));
    const source = await fileSource(path.join(dir, 'long.mov'), 'long.mov');
    const controller = new AbortController();
    const progress: number[] = [];
    let whileSending: string[] = [];
    const pending = http.request({
      method: 'PUT',
      url: `${base}/never`,
      body: source.slice(0, source.size),
      signal: controller.signal,
      onUploadProgress: (sent) => {
        progress.push(sent);
        if (progress.length > 1) return;
        whileSending = openFiles();
        controller.abort(new Error('paused'));
      },
    });
    await expect(pending).rejects.toThrow('paused');
    expect(progress.at(-1)).toBeLessThan(source.size);
    // And the file is let go: a paused upload holds no file open.
    expect(whileSending).toContain('long.mov');
    await expect.poll(() => openFiles(), { timeout: 2000 }).not.toContain('long.mov');
  });
});
