import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messages, sendMessages } from '@filerunner/protocol';
import {
  planUpload,
  walkPaths,
  type UploadLedger,
  type UploadPlan,
} from '@filerunner/transfer/node';
import { contracts, defaultContractSettings, packages } from '../../server/src/db/schema';
import { setContractQuotas } from '../../server/src/modules/contracts/contracts.service';
import { insertGroup } from '../../server/src/modules/contracts/groups.repository';
import {
  sourceDigests,
  sourceXxh128,
  storedFiles,
  writePatternedFile,
  writeSmallFiles,
} from '../../server/test/engine-fixtures';
import {
  caller,
  contractFixture,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../../server/test/harness';
import { freePort } from './cli-fixtures';

// The `filerunner` command as a script runs it: the real bin in its own process, against a
// listening server whose grants name the address the command reaches storage at.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const bin = fileURLToPath(new URL('../bin/filerunner.js', import.meta.url));
const MB = 1_000_000;

let server: TestServer;
let origin: string;
let fx: Awaited<ReturnType<typeof contractFixture>>;
let apiKey: string;
let dataDir: string;
/** The folder a post house delivers: 40 small files in nested folders and a 320 MB take. */
let delivery: string;
/** Three small files, for the runs that are about recipients rather than bytes. */
let notes: string;

/** A storage request the server answered: what a count of PUTs and FormPosts reads. */
interface StorageRequest {
  method: string;
  path: string;
  /** The status, or for a FormPost the one its redirect carries. */
  status: number;
}
let storageRequests: StorageRequest[] = [];

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // Grants name PUBLIC_URL, so the command's PUTs reach this server.
  server = await startTestServer({ PUBLIC_URL: origin });
  await server.app.listen({ host: '127.0.0.1', port });
  server.app.server.on('request', (request, response) => {
    if (!request.url?.startsWith('/v1/')) return;
    response.on('finish', () => {
      const location = String(response.getHeader('location') ?? '');
      const redirected = /[?&]status=(\d+)/.exec(location);
      storageRequests.push({
        method: request.method!,
        path: new URL(request.url!, origin).pathname,
        status: redirected ? Number(redirected[1]) : response.statusCode,
      });
    });
  });
  fx = await contractFixture(server);
  await insertGroup(server.ctx.db, fx.contract.id, {
    name: 'Crew',
    members: [fx.sender.user.id, fx.receiver.user.id],
  });
  const created = await caller(server)(fx.sender).post('/api/api_keys/', { name: 'deliveries' });
  apiKey = created.json().key;

  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-cli-'));
  delivery = path.join(dataDir, 'EP104');
  await writeSmallFiles(path.join(delivery, 'stills'), 40);
  await writePatternedFile(path.join(delivery, 'footage/A001_C002.mov'), 320 * MB, 4);
  notes = path.join(dataDir, 'notes');
  await writeSmallFiles(notes, 3);
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function setContract(settings: Partial<typeof defaultContractSettings>) {
  await server.ctx.db
    .update(contracts)
    .set({ settings: { ...defaultContractSettings, ...settings } })
    .where(eq(contracts.id, fx.contract.id));
}

interface Run {
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `filerunner send` with the options and paths given; the URL and key from the environment. */
function filerunner(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [bin, 'send', ...args], {
    env: {
      ...process.env,
      FILERUNNER_URL: origin,
      FILERUNNER_API_KEY: apiKey,
      XDG_STATE_HOME: path.join(dataDir, 'state'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    exited: new Promise((resolve) =>
      child.once('close', (code) => resolve({ code, stdout, stderr })),
    ),
    kill: (signal) => child.kill(signal),
  };
}

const sendArgs = (name: string, to: string[], ...paths: string[]) => [
  '--contract',
  fx.contract.slug,
  '--to',
  to.join(','),
  '--name',
  name,
  ...paths,
];

/** Every file under `folder` is stored in the package byte for byte, with its xxh128. */
async function expectStoredAsOnDisk(slug: string, folder: string) {
  const sources = await walkPaths([folder]);
  const { status, stored } = await storedFiles(server, slug);
  expect(status).toBe('complete');
  expect([...stored.keys()].sort()).toEqual(sources.map((s) => s.path).sort());
  const digests = await sourceDigests(sources);
  const hashes = await sourceXxh128(sources);
  for (const source of sources) {
    expect(stored.get(source.path)!.sha256, source.path).toBe(digests.get(source.path));
    expect(stored.get(source.path)!.xxh128, source.path).toBe(hashes.get(source.path));
  }
}

const isWrite = (r: StorageRequest) => r.method === 'PUT' || r.method === 'POST';

/** The slugs of the packages of that name, however far they got. */
async function packagesNamed(name: string): Promise<string[]> {
  const rows = await server.ctx.db
    .select({ slug: packages.slug })
    .from(packages)
    .where(eq(packages.name, name));
  return rows.map((r) => r.slug);
}

describe('filerunner send', () => {
  it('sends a folder with nested files and a multi-segment file; the slug is printed and the recipients are mailed', async () => {
    await setContract({ can_add_ad_hoc: true });
    const outsider = uniqueEmail('colourist');
    const run = filerunner([
      ...sendArgs('EP104 conform', [fx.receiver.user.email, outsider], delivery),
      '--message',
      'Conform for review',
      '--days',
      '7',
    ]);
    const { code, stdout, stderr } = await run.exited;

    expect(stderr).not.toContain(apiKey);
    expect(code, stderr).toBe(0);
    const slug = stdout.trim();
    expect(slug).toMatch(/^[\w-]+$/);
    // Not a terminal: plain lines, one per status at least.
    expect(stderr).toMatch(/^UPLOADING \d+%/m);
    expect(stderr).toMatch(/^COMPLETED 100%, 320 MB of 320 MB, 41 of 41 files$/m);
    expect(stderr).toContain(`Sent "EP104 conform" (${slug}): 41 file(s)`);
    await expectStoredAsOnDisk(slug, delivery);

    // The contract's user went by id and the outsider as a new recipient; both are told.
    for (const address of [fx.receiver.user.email, outsider]) {
      const mail = await server.waitForMail(
        (m) => m.to.includes(address) && m.links.some((link) => link.includes(slug)),
      );
      expect(mail.text).toContain('Conform for review');
    }
  });

  it('exits 3 with the server’s message when the API key is wrong', async () => {
    const wrongKey = 'fr_not-a-key-of-anyone';
    const { code, stdout, stderr } = await filerunner(sendArgs('Nope', ['a@example.com'], notes), {
      FILERUNNER_API_KEY: wrongKey,
    }).exited;
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain(`Authentication failed: ${messages.auth.invalidApiKey}`);
    expect(stderr).not.toContain(wrongKey);
  });

  it('exits 4 with the server’s message for a contract it does not know', async () => {
    const { code, stderr } = await filerunner([
      '--contract',
      'no-such-contract',
      '--to',
      fx.receiver.user.email,
      '--name',
      'Nope',
      notes,
    ]).exited;
    expect(code).toBe(4);
    expect(stderr).toContain(
      `The server refused to list the recipients of contract "no-such-contract" (404): ${messages.auth.notFound}`,
    );
  });

  it('sends to the contract’s users by id where new recipients are refused, and exits 4 for a new one', async () => {
    await setContract({ can_add_ad_hoc: false });
    const refused = await filerunner(
      sendArgs('Notes', [fx.receiver.user.email, uniqueEmail('stranger')], notes),
    ).exited;
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      `The server refused to create the package (400): recipients: ${sendMessages.adHocNotAllowed}`,
    );

    const sent = await filerunner(sendArgs('Notes', [fx.receiver.user.email], notes)).exited;
    expect(sent.code, sent.stderr).toBe(0);
    await expectStoredAsOnDisk(sent.stdout.trim(), notes);
  });

  it('exits 4 with the server’s message for a package larger than the contract allows', async () => {
    await setContractQuotas(server.ctx, fx.contract.slug, { maxPackageSize: 10 });
    try {
      const { code, stderr } = await filerunner(
        sendArgs('Too big', [fx.receiver.user.email], notes),
      ).exited;
      expect(code).toBe(4);
      expect(stderr).toMatch(
        /The server refused to create the package \(413\): This package is larger than your contract allows: a package can be at most 10 bytes and this one is [\d.]+ KB\./,
      );
      expect(await packagesNamed('Too big')).toEqual([]);
    } finally {
      await setContractQuotas(server.ctx, fx.contract.slug, { maxPackageSize: null });
    }
  });

  it('exits 2 for arguments that cannot be right, before calling the server', async () => {
    const before = storageRequests.length;
    const { code, stderr } = await filerunner(sendArgs('Notes', ['not-an-address'], notes)).exited;
    expect(code).toBe(2);
    expect(stderr).toContain('--to: "not-an-address" is not an email address.');
    const missing = await filerunner(sendArgs('Notes', ['a@example.com'], '/no/such/folder'))
      .exited;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No such file or folder: /no/such/folder');
    expect(storageRequests.length).toBe(before);
  });

  it('exits 5 with the engine’s message when storage keeps failing, and run again completes', async () => {
    await setContract({ can_add_ad_hoc: true });
    server.storeFaults!.set({ fail: 1 });
    const args = sendArgs('EP104 flaky', [fx.receiver.user.email], delivery);
    const failed = await filerunner(args).exited;
    server.storeFaults!.set(null);

    expect(failed.code, failed.stderr).toBe(5);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/filerunner: Uploads failed to complete \(package [\w-]+\)\./);
    expect(failed.stderr).toContain('41 file(s) failed:\n  EP104/footage/A001_C002.mov\n');
    expect(failed.stderr).toContain('Run the same command again to send what is missing.');

    const again = await filerunner(args).exited;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Continuing package');
    await expectStoredAsOnDisk(again.stdout.trim(), delivery);
  });

  it('stopped while its package is being created, run again, sends that package and no second one', async () => {
    await setContract({ can_add_ad_hoc: true });
    const args = sendArgs('Notes made once', [fx.receiver.user.email], notes);
    let run: Run | undefined;
    // The server makes the package, and its answer is held back until the command is stopped:
    // the command never learns the slug.
    const holdCreate = (request: IncomingMessage, response: ServerResponse) => {
      if (request.method !== 'POST' || !request.url?.startsWith('/api/packages/create/')) return;
      const end = response.end.bind(response) as (...parts: unknown[]) => ServerResponse;
      response.end = ((...parts: unknown[]) => {
        run!.kill('SIGINT');
        setTimeout(() => end(...parts), 500);
        return response;
      }) as typeof response.end;
    };
    server.app.server.prependListener('request', holdCreate);
    try {
      run = filerunner(args);
      const stopped = await run.exited;
      expect(stopped.code, stopped.stderr).toBe(130);
    } finally {
      server.app.server.off('request', holdCreate);
    }
    const made = await packagesNamed('Notes made once');
    expect(made).toHaveLength(1);

    const again = await filerunner(args).exited;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(made[0]);
    expect(await packagesNamed('Notes made once')).toEqual(made);
    await expectStoredAsOnDisk(made[0]!, notes);
  });

  it('stops on Ctrl-C with 130 and, run again, sends only what was missing', async () => {
    // Two workers and slow storage answers, so Ctrl-C lands with some of the upload stored.
    await setContract({ can_add_ad_hoc: true, number_of_upload_workers: 2 });
    server.storeFaults!.set({ delayMs: 150 });
    const args = sendArgs('EP104 resumed', [fx.receiver.user.email], delivery);
    storageRequests = [];
    const first = filerunner(args);
    await vi.waitFor(
      () =>
        expect(
          storageRequests.filter((r) => isWrite(r) && r.status === 201).length,
        ).toBeGreaterThanOrEqual(3),
      { timeout: 60_000, interval: 20 },
    );
    first.kill('SIGINT');
    const stopped = await first.exited;
    server.storeFaults!.set(null);

    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stdout).toBe('');
    expect(stopped.stderr).toMatch(
      /Interrupted with [\d.]+ [kMG]?B of 320 MB sent and \d+ of 41 files complete in package [\w-]+\./,
    );
    expect(stopped.stderr).toContain('Run the same command again to send the rest.');
    const ledgerFile = path.join(
      dataDir,
      'state/filerunner/uploads',
      `${new URL(origin).host.replace(':', '_')}.json`,
    );
    const ledgers = JSON.parse(await readFile(ledgerFile, 'utf8')) as Record<string, UploadLedger>;
    const [ledger] = Object.values(ledgers).filter((l) => l.package.name === 'EP104 resumed');
    const recordedBatches = Object.keys(ledger!.batches);
    const recordedSegments = Object.keys(
      ledger!.largeFiles['EP104/footage/A001_C002.mov']?.segments ?? {},
    );
    expect(recordedBatches.length + recordedSegments.length).toBeGreaterThan(0);

    storageRequests = [];
    const again = await filerunner(args).exited;
    expect(again.code, again.stderr).toBe(0);
    const slug = again.stdout.trim();
    expect(slug).toBe(ledger!.package.slug);
    expect(again.stderr).toContain(`Continuing package ${slug}`);

    // Only what the ledger did not hold went to storage again: the rest was checked by HEAD.
    const plan: UploadPlan = planUpload(await walkPaths([delivery]));
    const writes = storageRequests.filter(isWrite);
    const formPosts = writes.filter((r) => r.method === 'POST');
    expect(formPosts).toHaveLength(plan.batches.length - recordedBatches.length);
    const segments = plan.largeFiles[0]!.segments;
    const putSegments = segments.filter((s) => writes.some((r) => r.path.endsWith(`/${s.name}`)));
    expect(putSegments.map((s) => String(s.index)).sort()).toEqual(
      segments
        .map((s) => String(s.index))
        .filter((i) => !recordedSegments.includes(i))
        .sort(),
    );
    expect(writes.length).toBeLessThan(plan.batches.length + segments.length);
    await expectStoredAsOnDisk(slug, delivery);
    const after = JSON.parse(await readFile(ledgerFile, 'utf8')) as Record<string, UploadLedger>;
    expect(after[slug]).toBeUndefined();
  });
});
