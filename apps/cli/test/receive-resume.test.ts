import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DownloadLedger } from '@filerunner/transfer/node';
import { insertGroup } from '../../server/src/modules/contracts/groups.repository';
import { linkIn } from '../../server/test/captured-mail';
import {
  caller,
  contractFixture,
  setContractSettings,
  startTestServer,
  type TestServer,
} from '../../server/test/harness';
import { everyKindOfFile, TestUploader, type TestFile } from '../../server/test/uploader';

// `filerunner receive` killed mid-way (SIGKILL: no Ctrl-C handler runs, as in a crash or a
// power cut) and run again: by the recipient's link and by API key, it ends byte for byte,
// the server sending the second time only what was not on disk. The first run is held mid-body
// by the store's injected stall (STORE_FAULTS), which now reaches package downloads.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const bin = fileURLToPath(new URL('../bin/filerunner.js', import.meta.url));
const PARTNER = 'partner@example.com';

let server: TestServer;
let origin: string;
let apiKey: string;
let slug: string;
let link: string;
let tarSize: number;
let files: TestFile[];
let dataDir: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await startTestServer({ PUBLIC_URL: origin });
  await server.app.listen({ host: '127.0.0.1', port });
  const fx = await contractFixture(server);
  await insertGroup(server.ctx.db, fx.contract.id, {
    name: 'Crew',
    members: [fx.sender.user.id, fx.receiver.user.id],
  });
  // The partner, not a member, gets the external link.
  await setContractSettings(server, fx.contract.id, { can_add_ad_hoc: true });
  const sender = new TestUploader(server, origin, fx.sender.headers);
  const { slabbed, all } = everyKindOfFile();
  files = all;
  const pkg = await sender.createOf(files, {
    contract: fx.contract.slug,
    name: 'Dailies day 3',
    recipients: [{ id: fx.receiver.user.id }, { email: PARTNER, mobile: null }],
  });
  await sender.send(files, { pkg }, { slabbed });
  slug = pkg.slug;
  const created = await caller(server)(fx.receiver).post('/api/api_keys/', { name: 'ingest' });
  expect(created.statusCode, created.body).toBe(201);
  apiKey = created.json().key;
  const grant = await caller(server)(fx.receiver).get(`/api/packages/${slug}/download/`);
  expect(grant.statusCode, grant.body).toBe(200);
  tarSize = grant.json().size;
  link = linkIn(await server.waitForMail((m) => JSON.stringify(m.to).includes(PARTNER)));
  expect(link).toContain(`/inbox/external/${slug}?key=`);
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-cli-receive-resume-'));
});
afterAll(async () => {
  server?.storeFaults?.set(null);
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The command in its own process; `done` resolves with how it ended. */
function filerunner(args: string[], stateHome: string) {
  const child = spawn(process.execPath, [bin, 'receive', ...args], {
    env: {
      ...process.env,
      FILERUNNER_URL: origin,
      FILERUNNER_API_KEY: apiKey,
      XDG_STATE_HOME: stateHome,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>(
    (resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, done };
}

/** Bytes of downloads the server has sent so far, as its metrics count them. */
async function bytesSent(): Promise<number> {
  await server.ctx.pendingWork.settled();
  const counter = server.ctx.metrics.registry.getSingleMetric('filerunner_downloaded_bytes_total')!;
  return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
}

/** The files' bytes an unfinished download's ledger says are on disk (0 while none is saved). */
async function keptBytesIn(ledgerFile: string): Promise<number> {
  let all: Record<string, DownloadLedger>;
  try {
    all = JSON.parse(await readFile(ledgerFile, 'utf8')) as Record<string, DownloadLedger>;
  } catch {
    return 0;
  }
  const ledgers = Object.values(all);
  if (ledgers.length === 0) return 0;
  // The tar's members in order: the package's files by path, then its ASC MHL.
  const sizes = [...files].sort((a, b) => (a.path < b.path ? -1 : 1)).map((f) => f.bytes.length);
  let kept = 0;
  for (const [index, target] of Object.entries(ledgers[0]!.targets)) {
    if (target.done) kept += sizes[Number(index)] ?? 0;
    for (const [start, end] of target.ranges ?? []) kept += end - start;
  }
  return kept;
}

async function expectReceivedIn(out: string) {
  for (const file of files) {
    const found = await readFile(path.join(out, ...file.path.split('/')));
    expect(found.equals(file.bytes), file.path).toBe(true);
  }
  const names = await readdir(out, { recursive: true });
  expect(names.filter((n) => n.endsWith('.filerunner-part'))).toEqual([]);
}

describe('filerunner receive, killed mid-way and run again', () => {
  for (const [by, target] of [
    ['by link', () => [link]],
    ['by API key', () => [slug]],
  ] as const) {
    it(`ends byte-identical ${by}, fetching the second time only what was missing`, async () => {
      const out = path.join(dataDir, `out-${by.replace(/\W/g, '')}`);
      const stateHome = path.join(dataDir, `state-${by.replace(/\W/g, '')}`);
      const host = new URL(origin).host.replace(':', '_');
      const ledgerFile = path.join(stateHome, 'filerunner', 'downloads', `${host}.json`);
      const packageBytes = files.reduce((sum, f) => sum + f.bytes.length, 0);

      // Every ranged answer sends half its body and then hangs: the command waits mid-way.
      server.storeFaults!.set({ stall: 1 });
      const first = filerunner(['--out', out, ...target()], stateHome);
      let kept = 0;
      for (let waited = 0; kept === 0 && waited < 30_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        kept = await keptBytesIn(ledgerFile);
      }
      first.child.kill('SIGKILL');
      const killed = await first.done;
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      server.storeFaults!.set(null);
      // The tar's first half: the first files and part of the large one are on disk.
      expect(kept).toBeGreaterThan(packageBytes / 3);

      const before = await bytesSent();
      const second = await filerunner(['--out', out, ...target()], stateHome).done;
      expect(second.stderr).toContain('Received 8 files, each verified.');
      expect(second.code, second.stderr).toBe(0);
      await expectReceivedIn(out);
      const sentAgain = (await bytesSent()) - before;
      // The missing file bytes and the tar framing around them, never the bytes kept on disk.
      expect(sentAgain).toBeGreaterThanOrEqual(packageBytes - kept);
      expect(sentAgain).toBeLessThanOrEqual(tarSize - kept);
      // The finished download's ledger is gone.
      expect(await keptBytesIn(ledgerFile)).toBe(0);
    });
  }
});
