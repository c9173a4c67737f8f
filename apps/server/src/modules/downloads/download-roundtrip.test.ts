import { afterAll, describe, expect, it } from 'vitest';
import {
  describeOnSwift,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../../../test/harness';
import { everyKindOfFile, listeningSender } from '../../../test/uploader';
import { apartFromMhl, extractWithTar } from './download-fixtures';

// What a sender uploads through the real send calls, a recipient downloads byte for byte.

async function sendAndDownload(server: TestServer) {
  const { origin, fx, sender } = await listeningSender(server, `Team ${uniqueEmail()}`);
  const { slabbed, large, all } = everyKindOfFile();

  const pkg = await sender.createOf(all, {
    contract: fx.contract.slug,
    name: 'Round trip',
    recipients: [{ id: fx.receiver.user.id }],
  });
  await sender.send(all, { pkg }, { slabbed });

  const ask = async (path = '') => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/packages/${pkg.slug}/download/${path.split('/').map(encodeURIComponent).join('/')}`,
      headers: fx.receiver.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return origin + new URL(response.json().download_url as string).pathname;
  };
  const tarUrl = await ask();
  const head = await fetch(tarUrl, { method: 'HEAD' });
  const size = Number(head.headers.get('content-length'));
  // Three concurrent chunks, cut inside the slab and inside the manifest's segments.
  const cuts = [0, 3001, Math.floor(size / 2) + 7, size];
  const parts = await Promise.all(
    cuts.slice(0, -1).map(async (start, i) => {
      const response = await fetch(tarUrl, {
        headers: { range: `bytes=${start}-${cuts[i + 1]! - 1}` },
      });
      expect(response.status).toBe(206);
      return Buffer.from(await response.arrayBuffer());
    }),
  );
  const { files: found, mhl } = apartFromMhl(extractWithTar(Buffer.concat(parts)));
  expect([...found.keys()].sort()).toEqual(all.map((f) => f.path).sort());
  // After the files, the tar carries the package's hash list and its chain.
  expect(mhl.size).toBe(2);
  for (const file of all) expect(found.get(file.path)?.equals(file.bytes), file.path).toBe(true);

  for (const file of [slabbed[2]!, large]) {
    const response = await fetch(await ask(file.path));
    expect(Buffer.from(await response.arrayBuffer()).equals(file.bytes), file.path).toBe(true);
  }
}

describe('a package sent through the upload calls', () => {
  let server: TestServer;
  afterAll(() => server?.close());
  it('downloads as the files that were sent, from the embedded store', async () => {
    server = await startTestServer();
    await sendAndDownload(server);
  });
});

describeOnSwift('a package sent to OpenStack Swift (SWIFT_AUTH_URL)', (startServer) => {
  it('downloads as the files that were sent, read from Swift', async () => {
    await sendAndDownload(await startServer());
  });
});
