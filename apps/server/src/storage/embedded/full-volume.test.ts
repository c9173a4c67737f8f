import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { packageFiles } from '../../db/schema';
import { createScratchDatabase } from '../../db/scratch-database';
import { createPackage } from '../../modules/downloads/download-fixtures';
import { contractFixture, startTestServer, type TestServer } from '../../../test/harness';
import { mountSmallVolume, type SmallVolume } from '../../../test/small-volume';

// The embedded store on a volume that really fills: its data folder on a 32 MB tmpfs of its own
// (the database is the run's PostgreSQL, elsewhere), with a floor of 4 MB.

const MB = 1_000_000;
const FLOOR = 4 * MB;
const CONTAINER = 'full';

let volume: SmallVolume;
let mountPoint: string;
let server: TestServer;
let origin: string;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  volume = await mountSmallVolume('fr-full-volume-', '32m');
  mountPoint = volume.path;
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  dropDatabase = database.drop;
  server = await startTestServer({
    DATA_DIR: path.join(mountPoint, 'data'),
    DATABASE_URL: database.url,
    STORAGE_FREE_FLOOR: String(FLOOR),
  });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  await server.ctx.storage.ensureContainer(CONTAINER);
});

afterAll(async () => {
  await server?.close();
  await dropDatabase?.();
  await volume?.unmount();
});

const freeBytes = () => volume.freeBytes();

/** A file that takes the volume down to `free` bytes (or as close as the file system allows). */
async function ballastLeaving(free: number, name = 'ballast'): Promise<string> {
  const file = path.join(mountPoint, name);
  await writeFile(file, Buffer.alloc(Math.max(0, (await freeBytes()) - free), 1));
  return file;
}

function signedPut(key: string): string {
  return server.ctx.storage.signTempUrl({
    method: 'PUT',
    container: CONTAINER,
    key,
    expires: Math.floor(Date.now() / 1000) + 600,
  }).url;
}

interface Answer {
  status: number;
  body: string;
}

/**
 * PUTs `size` bytes to `url` in 1 MB chunks, as a client that sends everything before it reads
 * would; `chunked` leaves out Content-Length. Settles with the answer, however early it came.
 */
function put(url: string, size: number, chunked = false): Promise<Answer> {
  const target = new URL(url.replace(/^https?:\/\/[^/]+/, origin));
  return new Promise((resolve, reject) => {
    const request = http.request(target, {
      method: 'PUT',
      headers: chunked ? {} : { 'content-length': String(size) },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    // A refused body ends in a reset once the answer is in; the answer is what counts.
    request.on('error', (error) => setTimeout(() => reject(error), 1000));
    const chunk = Buffer.alloc(MB, 7);
    let sent = 0;
    const next = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(MB, size - sent));
        sent += part.length;
        if (!request.write(part)) return void request.once('drain', next);
      }
      request.end();
    };
    next();
  });
}

async function health() {
  const response = await fetch(`${origin}/healthcheck`);
  return { code: response.status, ...((await response.json()) as { status: string }) };
}

const tempFiles = () => readdir(path.join(mountPoint, 'data', 'objects', '.tmp'));

describe('a full volume', () => {
  it('refuses a new object under the floor with 507 without storing its body, and says degraded', async () => {
    const ballast = await ballastLeaving(FLOOR + 2 * MB);
    try {
      const answer = await put(signedPut('under-floor.bin'), 8 * MB);
      expect(answer.status).toBe(507);
      // A client that sends the whole body before it reads (Node's fetch) gets the answer too:
      // the refused body is read and dropped, not left to a closed connection.
      const fetched = await fetch(
        signedPut('under-floor.bin').replace(/^https?:\/\/[^/]+/, origin),
        {
          method: 'PUT',
          body: new Blob([Buffer.alloc(8 * MB)]),
        },
      );
      expect(fetched.status).toBe(507);
      expect(await fetched.text()).toMatch(/^Insufficient Storage/);
      expect(answer.body).toMatch(/^Insufficient Storage/);
      expect(
        await server.ctx.storage.head({ container: CONTAINER, key: 'under-floor.bin' }),
      ).toBeNull();
      expect(await health()).toMatchObject({ code: 200, status: 'degraded' });
      // A small object still fits above the floor.
      expect((await put(signedPut('small.bin'), MB)).status).toBe(201);
    } finally {
      await rm(ballast);
    }
    expect(await health()).toMatchObject({ code: 200, status: 'ok' });
  });

  it('answers 507 when the volume fills during a write, leaving no part of the object', async () => {
    // Above the floor, so a body of unknown length is admitted; then the disk runs out under it.
    const ballast = await ballastLeaving(FLOOR + 2 * MB);
    try {
      const answer = await put(signedPut('filling.bin'), FLOOR + 6 * MB, true);
      expect(answer.status).toBe(507);
      expect(
        await server.ctx.storage.head({ container: CONTAINER, key: 'filling.bin' }),
      ).toBeNull();
      expect(await tempFiles()).toEqual([]);
      expect(await freeBytes()).toBeGreaterThan(FLOOR);
    } finally {
      await rm(ballast);
    }
  });

  it('sweeps an expired package on a volume with no byte left, and takes files again once freed', async () => {
    const fx = await contractFixture(server);
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: [{ path: 'big.bin', bytes: randomBytes(6 * MB) }],
      expiresInHours: -1,
    });
    // Someone else takes every byte left, floor and all.
    const ballast = await ballastLeaving(0);
    try {
      expect(await freeBytes()).toBeLessThan(MB);
      expect((await put(signedPut('refused.bin'), MB)).status).toBe(507);

      // Deleting needs no new space: the sweep works and gives the package's bytes back.
      expect(await server.objectSweeper.sweep()).toBe(1);
      expect(await freeBytes()).toBeGreaterThanOrEqual(6 * MB);
      const [file] = await server.ctx.db
        .select()
        .from(packageFiles)
        .where(eq(packageFiles.packageId, pkg.id));
      expect(
        await server.ctx.storage.head({ container: pkg.container!, key: file!.objectKey! }),
      ).toBeNull();
    } finally {
      await rm(ballast);
    }
    // No restart: the store takes files again and the server says it is well.
    expect((await put(signedPut('after.bin'), 2 * MB)).status).toBe(201);
    expect(await health()).toMatchObject({ code: 200, status: 'ok' });
  });
});
