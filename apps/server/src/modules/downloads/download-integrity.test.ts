import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  contractFixture,
  useTestServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { storedFile } from './downloads.repository';
import { addRecipient, createPackage, putObject, type FixtureFile } from './download-fixtures';

// A sent package's bytes are the ones recorded when it was sent. An object replaced in storage
// since then (by a grant still valid, or by hand) must make the download fail, naming the file,
// never serve other bytes under the old ETag.

let server: TestServer;
let origin: string;
let fx: ContractFixture;
const logLines: string[] = [];

useTestServer(
  async (t) => {
    ({ server } = t);
    origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    fx = await contractFixture(server);
  },
  {},
  { logStream: { write: (line) => void logLines.push(line) } },
);

/** A sent package of these files with the receiver as recipient. */
async function sentPackage(files: readonly FixtureFile[]) {
  const sent = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files,
  });
  await addRecipient(server, sent.pkg.id, fx.receiver.user);
  return sent.pkg;
}

/** Replaces the object of a stored file with other bytes, as a leftover upload grant could. */
async function replaceObject(
  pkg: { id: number; container: string },
  userPath: string,
  bytes: Buffer,
) {
  const file = await storedFile(server.ctx.db, pkg.id, { userPath });
  await putObject(server, pkg.container, file!.objectKey!, bytes);
}

/** The download URL's path (the grant names PUBLIC_URL, not the listening port). */
async function grantPath(slug: string, userPath = ''): Promise<string> {
  const response = await server.app.inject({
    method: 'GET',
    url: `/api/packages/${slug}/download/${userPath}`,
    headers: fx.receiver.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return new URL(response.json<{ download_url: string }>().download_url).pathname;
}

const loggedChange = (userPath: string) =>
  logLines.some((line) => line.includes('changed in storage') && line.includes(userPath));

describe('a stored file changed since sending', () => {
  it('fails a single-file download with 409 naming the file, before any byte', async () => {
    const bytes = randomBytes(4000);
    const pkg = await sentPackage([{ path: 'report/final.pdf', bytes }]);
    const url = await grantPath(pkg.slug, 'report/final.pdf');
    expect((await server.app.inject({ method: 'GET', url })).rawPayload.equals(bytes)).toBe(true);

    // Same length, other bytes: only the etag tells them apart.
    await replaceObject(pkg, 'report/final.pdf', randomBytes(4000));
    const refused = await server.app.inject({ method: 'GET', url });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('report/final.pdf');
    expect(loggedChange('report/final.pdf')).toBe(true);
    // Ranged requests of a download manager fail the same way.
    const ranged = await server.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-9' } });
    expect(ranged.statusCode).toBe(409);
  });

  it('fails the tar with 409 naming the file when the change shows before the first byte', async () => {
    const pkg = await sentPackage([
      { path: 'a.txt', bytes: randomBytes(700) },
      { path: 'b/shorter.bin', bytes: randomBytes(9000) },
    ]);
    const url = await grantPath(pkg.slug);
    // A shorter object would otherwise cut the tar and shift every later byte.
    await replaceObject(pkg, 'b/shorter.bin', randomBytes(10));
    const refused = await server.app.inject({ method: 'GET', url });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('b/shorter.bin');
    expect(loggedChange('b/shorter.bin')).toBe(true);
  });

  it('names the changed file among the small files read together, and serves ranges beside it', async () => {
    const pkg = await sentPackage(
      ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'].map((path, i) => ({
        path,
        bytes: randomBytes(700 + 200 * i),
      })),
    );
    const url = await grantPath(pkg.slug);
    const before = (await server.app.inject({ method: 'GET', url })).rawPayload;
    // Same length, other bytes, in the middle of what the server reads as one piece.
    await replaceObject(pkg, 'c.txt', randomBytes(1100));
    const whole = await server.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(409);
    expect(whole.json().detail).toContain('c.txt');
    // From inside a.txt's header to the end of b.txt's padding: c.txt's bytes are not in it.
    const beside = await server.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=100-2999' },
    });
    expect(beside.statusCode).toBe(206);
    expect(beside.rawPayload.equals(before.subarray(100, 3000))).toBe(true);
    const across = await server.app.inject({
      method: 'GET',
      url,
      headers: { range: 'bytes=2000-3600' },
    });
    expect(across.statusCode).toBe(409);
    expect(across.json().detail).toContain('c.txt');
  });

  it('cuts the tar when the changed file comes after bytes already sent, and logs which', async () => {
    const large = randomBytes(3 << 20);
    const pkg = await sentPackage([
      { path: 'a-large.bin', bytes: large },
      { path: 'z-changed.txt', bytes: randomBytes(2000) },
    ]);
    const url = await grantPath(pkg.slug);
    await replaceObject(pkg, 'z-changed.txt', randomBytes(2000));
    const response = await fetch(origin + url);
    expect(response.status).toBe(200);
    const announced = Number(response.headers.get('content-length'));
    let received = 0;
    let cut = false;
    try {
      for await (const chunk of response.body!) received += chunk.length;
    } catch {
      cut = true;
    }
    expect(cut || received < announced).toBe(true);
    expect(received).toBeLessThan(announced);
    await expect.poll(() => loggedChange('z-changed.txt')).toBe(true);
  });
});
