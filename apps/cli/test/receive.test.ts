import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
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

function filerunner(args: string[], url = origin) {
  return filerunnerProcess(['receive', ...args], {
    FILERUNNER_URL: url,
    FILERUNNER_API_KEY: apiKey,
    XDG_STATE_HOME: path.join(dataDir, 'state'),
  }).done;
}

/** The request headers a proxy passes on: the credentials and the client's own. */
function passedOn(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['authorization', 'content-type', 'x-client-version', 'user-agent']) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/**
 * A hostile server: the real one behind a proxy that rewrites its JSON answers with `rewrite`
 * (by the call's path). Closed after the file's tests.
 */
async function hostileServer(rewrite: (path: string, body: Record<string, unknown>) => unknown) {
  const proxy = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const upstream = await fetch(origin + request.url, {
        method: request.method!,
        headers: passedOn(request.headers),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
      let body = Buffer.from(await upstream.arrayBuffer());
      if (type.includes('json') && upstream.ok) {
        const path = new URL(request.url!, origin).pathname;
        body = Buffer.from(JSON.stringify(rewrite(path, JSON.parse(body.toString()))));
      }
      response.writeHead(upstream.status, { 'content-type': type }).end(body);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => proxy.close(() => resolve())));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}
const closing: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closing.map((close) => close())));

const isReceiptCall = (path: string) => /\/receipt\/$/.test(path);

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
    // Its receipt's challenge is answered from the members' places in the kept .tar.
    expect(run.stderr).toContain("The server's signed delivery receipt is in");
    const tar = await readFile(path.join(out, 'Ep 104 conform.tar'));
    expect(tar.length).toBeGreaterThan(files.reduce((sum, f) => sum + f.bytes.length, 0));
  });

  it("saves the receipt under a name of its own, whatever the server's filename", async () => {
    const hostile = await hostileServer((path, body) =>
      path.endsWith('/download/') ? { ...body, filename: '../../../escaped/evil.tar' } : body,
    );
    const out = path.join(dataDir, 'deep', 'down', 'hostile-name');
    const run = await filerunner(['--out', out, slug], hostile);
    expect(run.code, run.stderr).toBe(0);
    const saved = path.join(out, '_.._.._escaped_evil.receipt.jws');
    expect(run.stderr).toContain(`The server's signed delivery receipt is in ${saved}`);
    expect((await readFile(saved, 'utf8')).split('.')).toHaveLength(3);
    await expect(access(path.resolve(out, '../../../escaped'))).rejects.toThrow();
  });

  it('saves no receipt that does not verify with the published key, and says why', async () => {
    const ownKey = generateKeyPairSync('ed25519').privateKey;
    const hostile = await hostileServer((path, body) => {
      if (!isReceiptCall(path)) return body;
      // Claims of its own choosing, signed with a key of its own under the published key's id.
      const [header, payload] = String(body.receipt).split('.') as [string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims.verification.verified = 999_999;
      const forged = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const signature = sign(null, Buffer.from(`${header}.${forged}`), ownKey);
      return { ...body, receipt: `${header}.${forged}.${signature.toString('base64url')}` };
    });
    const out = path.join(dataDir, 'forged');
    const run = await filerunner(['--out', out, slug], hostile);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "No delivery receipt was saved: its signature does not verify with the server's published key.",
    );
    expect((await readdir(out)).filter((name) => name.endsWith('.jws'))).toEqual([]);
  });

  it('says what is missing and exits 2 on a link that is not one', async () => {
    const run = await filerunner(['https://example.test/inbox/nothing']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Not a package link');
  });
});
