import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DownloadLedger } from '@filerunner/transfer/node';
import { linkIn } from '../../server/test/captured-mail';
import { downloadedBytes, expectUnpackedIn, keptBytesOf } from '../../server/test/engine-fixtures';
import { caller, type TestServer } from '../../server/test/harness';
import type { TestFile } from '../../server/test/uploader';
import { filerunnerProcess, listeningServer, receivedPackage } from './cli-fixtures';

// `filerunner receive` killed mid-way (SIGKILL: no Ctrl-C handler runs, as in a crash or a
// power cut) and run again: by the recipient's link and by API key, it ends byte for byte,
// the server sending the second time only what was not on disk. The first run is held mid-body
// by the store's injected stall (STORE_FAULTS), which now reaches package downloads.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const PARTNER = 'partner@example.com';

let server: TestServer;
let origin: string;
let apiKey: string;
let slug: string;
let link: string;
let tarSize: number;
let files: TestFile[];
let dataDir: string;

beforeAll(async () => {
  ({ server, origin } = await listeningServer());
  // The partner, not a member, gets the external link.
  const sent = await receivedPackage(server, origin, { name: 'Dailies day 3', partner: PARTNER });
  ({ slug, files, apiKey } = sent);
  const grant = await caller(server)(sent.fx.receiver).get(`/api/packages/${slug}/download/`);
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
  return filerunnerProcess(['receive', ...args], {
    FILERUNNER_URL: origin,
    FILERUNNER_API_KEY: apiKey,
    XDG_STATE_HOME: stateHome,
  });
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
  return keptBytesOf(ledgers[0]!, sizes);
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

      const before = await downloadedBytes(server);
      const second = await filerunner(['--out', out, ...target()], stateHome).done;
      expect(second.stderr).toContain('Received 8 files, each verified.');
      expect(second.code, second.stderr).toBe(0);
      await expectUnpackedIn(out, files);
      const sentAgain = (await downloadedBytes(server)) - before;
      // The missing file bytes and the tar framing around them, never the bytes kept on disk.
      expect(sentAgain).toBeGreaterThanOrEqual(packageBytes - kept);
      expect(sentAgain).toBeLessThanOrEqual(tarSize - kept);
      // The finished download's ledger is gone.
      expect(await keptBytesIn(ledgerFile)).toBe(0);
    });
  }
});
