import { verify } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../../server/test/harness';
import type { TestFile } from '../../server/test/uploader';
import { filerunnerProcess, listeningServer, receivedPackage } from './cli-fixtures';

// `filerunner receive` as a script runs it: the real bin in its own process, against a
// listening server, a package the upload engine sent, unpacked into a folder and verified.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let server: TestServer;
let origin: string;
let apiKey: string;
let slug: string;
let files: TestFile[];
let dataDir: string;

beforeAll(async () => {
  ({ server, origin } = await listeningServer());
  ({ slug, files, apiKey } = await receivedPackage(server, origin, { name: 'Ep 104 conform' }));
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-cli-receive-'));
});
afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function filerunner(args: string[]) {
  return filerunnerProcess(['receive', ...args], {
    FILERUNNER_URL: origin,
    FILERUNNER_API_KEY: apiKey,
    XDG_STATE_HOME: path.join(dataDir, 'state'),
  }).done;
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
