import { spawn } from 'node:child_process';
import { verify } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertGroup } from '../../server/src/modules/contracts/groups.repository';
import {
  caller,
  contractFixture,
  startTestServer,
  type TestServer,
} from '../../server/test/harness';
import { everyKindOfFile, TestUploader, type TestFile } from '../../server/test/uploader';

// `filerunner receive` as a script runs it: the real bin in its own process, against a
// listening server, a package the upload engine sent, unpacked into a folder and verified.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const bin = fileURLToPath(new URL('../bin/filerunner.js', import.meta.url));

let server: TestServer;
let origin: string;
let apiKey: string;
let slug: string;
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
  // Grants name PUBLIC_URL, so the command's ranged GETs reach this server.
  server = await startTestServer({ PUBLIC_URL: origin });
  await server.app.listen({ host: '127.0.0.1', port });
  const fx = await contractFixture(server);
  await insertGroup(server.ctx.db, fx.contract.id, {
    name: 'Crew',
    members: [fx.sender.user.id, fx.receiver.user.id],
  });
  const sender = new TestUploader(server, origin, fx.sender.headers);
  const { slabbed, all } = everyKindOfFile();
  files = all;
  const pkg = await sender.createOf(files, {
    contract: fx.contract.slug,
    name: 'Ep 104 conform',
    recipients: [{ id: fx.receiver.user.id }],
  });
  await sender.send(files, { pkg }, { slabbed });
  slug = pkg.slug;
  const created = await caller(server)(fx.receiver).post('/api/api_keys/', { name: 'ingest' });
  expect(created.statusCode, created.body).toBe(201);
  apiKey = created.json().key;
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-cli-receive-'));
});
afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function filerunner(args: string[]) {
  const child = spawn(process.execPath, [bin, 'receive', ...args], {
    env: {
      ...process.env,
      FILERUNNER_URL: origin,
      FILERUNNER_API_KEY: apiKey,
      XDG_STATE_HOME: path.join(dataDir, 'state'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('filerunner receive', () => {
  it('unpacks a package into --out, every file verified, and exits 0', async () => {
    const out = path.join(dataDir, 'received');
    const run = await filerunner(['--out', out, slug]);
    // The six files sent, and the package's ASC MHL (hash list and chain) beside them.
    expect(run.stderr).toContain('Received 8 files, each verified.');
    expect(run.code).toBe(0);
    for (const file of files) {
      const found = await readFile(path.join(out, ...file.path.split('/')));
      expect(found.equals(file.bytes), file.path).toBe(true);
    }
    // The grant's token never reaches the output.
    expect(run.stderr).not.toMatch(/\/downloads\//);

    // The server's signed receipt of the delivery, beside the files, checked with its key.
    const receipt = (await readFile(path.join(out, 'Ep 104 conform.receipt.jws'), 'utf8')).trim();
    const key = (await (await fetch(`${origin}/api/receipts/public-key/`)).json()) as {
      pem: string;
    };
    const [header, payload, signature] = receipt.split('.') as [string, string, string];
    const signed = Buffer.from(`${header}.${payload}`);
    expect(verify(null, signed, key.pem, Buffer.from(signature, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      package: { slug: string };
      verification: { verified: number; failed: string[] };
    };
    expect(claims.package.slug).toBe(slug);
    expect(claims.verification).toMatchObject({ verified: 8, failed: [] });
  });

  it('keeps the .tar with --tar', async () => {
    const out = path.join(dataDir, 'as-tar');
    const run = await filerunner(['--tar', '--out', out, slug]);
    expect(run.code, run.stderr).toBe(0);
    const tar = await readFile(path.join(out, 'Ep 104 conform.tar'));
    expect(tar.length).toBeGreaterThan(files.reduce((sum, f) => sum + f.bytes.length, 0));
  });

  it('says what is missing and exits 2 on a link that is not one', async () => {
    const run = await filerunner(['https://example.test/inbox/nothing']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Not a package link');
  });
});
