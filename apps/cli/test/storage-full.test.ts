import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { walkPaths } from '@filerunner/transfer/node';
import { contracts, defaultContractSettings } from '../../server/src/db/schema';
import { createScratchDatabase } from '../../server/src/db/scratch-database';
import { insertGroup } from '../../server/src/modules/contracts/groups.repository';
import { sourceDigests, storedFiles, writePatternedFile } from '../../server/test/engine-fixtures';
import {
  caller,
  contractFixture,
  startTestServer,
  type TestServer,
} from '../../server/test/harness';
import { mountSmallVolume, type SmallVolume } from '../../server/test/small-volume';
import { freePort } from './cli-fixtures';

// `filerunner send` against a server whose data folder is on a small tmpfs that fills up: the
// command says storage is full, waits, and sends the rest once space is freed.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const bin = fileURLToPath(new URL('../bin/filerunner.js', import.meta.url));
const MB = 1_000_000;
const FLOOR = 4 * MB;

let volume: SmallVolume;
let mountPoint: string;
let server: TestServer;
let origin: string;
let dropDatabase: () => Promise<void>;
let work: string;

beforeAll(async () => {
  volume = await mountSmallVolume('fr-cli-full-', '48m');
  mountPoint = volume.path;
  const database = await createScratchDatabase(process.env.DATABASE_URL!);
  dropDatabase = database.drop;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // Grants name PUBLIC_URL, so the command's storage requests reach this server.
  server = await startTestServer({
    DATA_DIR: path.join(mountPoint, 'data'),
    DATABASE_URL: database.url,
    PUBLIC_URL: origin,
    STORAGE_FREE_FLOOR: String(FLOOR),
  });
  await server.app.listen({ host: '127.0.0.1', port });
  work = await mkdtemp(path.join(tmpdir(), 'fr-cli-full-work-'));
});

afterAll(async () => {
  await server?.close();
  await dropDatabase?.();
  await volume?.unmount();
  if (work) await rm(work, { recursive: true, force: true });
});

const freeBytes = () => volume.freeBytes();

describe('filerunner send on a full storage', () => {
  it('says storage is full rather than failing, waits, and completes once space is freed', async () => {
    const fx = await contractFixture(server);
    await server.ctx.db
      .update(contracts)
      .set({ settings: { ...defaultContractSettings, can_add_ad_hoc: true } })
      .where(eq(contracts.id, fx.contract.id));
    await insertGroup(server.ctx.db, fx.contract.id, {
      name: 'Crew',
      members: [fx.sender.user.id, fx.receiver.user.id],
    });
    const key = (await caller(server)(fx.sender).post('/api/api_keys/', { name: 'cli' })).json()
      .key as string;
    // Four takes of 4 MB, sent as one FormPost batch of 16 MB.
    const folder = path.join(work, 'Reel');
    for (let i = 0; i < 4; i++)
      await writePatternedFile(path.join(folder, `take_${i}.mov`), 4 * MB, i);

    // Room above the floor for less than the batch.
    const ballast = path.join(mountPoint, 'ballast');
    await writeFile(ballast, Buffer.alloc((await freeBytes()) - FLOOR - 8 * MB, 1));

    const child = spawn(
      process.execPath,
      [
        bin,
        'send',
        '--contract',
        fx.contract.slug,
        '--to',
        fx.receiver.user.email,
        '--name',
        'Reel',
        folder,
      ],
      {
        env: {
          ...process.env,
          FILERUNNER_URL: origin,
          FILERUNNER_API_KEY: key,
          XDG_STATE_HOME: path.join(work, 'state'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));

    await vi.waitFor(
      () =>
        expect(child.exitCode === null && stderr).toContain(
          'Storage is full: the upload is paused.',
        ),
      {
        timeout: 60_000,
        interval: 200,
      },
    );
    expect(child.exitCode).toBeNull();
    expect(stderr).not.toContain('We failed to upload some of your files');

    await rm(ballast);
    const code = await exited;
    expect(code, stderr).toBe(0);
    const slug = stdout.trim();
    const { status, stored } = await storedFiles(server, slug);
    expect(status).toBe('complete');
    const sources = await walkPaths([folder]);
    const digests = await sourceDigests(sources);
    for (const source of sources) {
      expect(stored.get(source.path)?.sha256, source.path).toBe(digests.get(source.path));
    }
  });
});
