/**
 * Seeds a DATA_DIR for the receive benchmark and prints, as JSON on stdout, what run.ts needs: a
 * recipient's API key, email and password (the browser part signs in as them), and for each
 * package its slug, name, tar grant path and size, and its files' count and bytes. Each file's xxh128 is
 * recorded as the sender's engine would, so `filerunner receive` verifies every file. Runs in
 * its own process so the server measured afterwards starts with nothing of the seeding.
 *
 *   node --import tsx bench/download/seed.ts DATA_DIR LARGE_MIB SMALL_FILES SMALL_KIB
 */
import { randomBytes } from 'node:crypto';
import { XxhashFileHasher } from '@filerunner/transfer/node';
import { caller, contractFixture, PASSWORD, startTestServer } from '../../apps/server/test/harness';
import {
  addRecipient,
  createPackage,
  type FixtureFile,
} from '../../apps/server/src/modules/downloads/download-fixtures';

const [dataDir, largeMib, smallFiles, smallKib] = process.argv.slice(2);
if (!dataDir || !smallKib)
  throw new Error('usage: seed.ts DATA_DIR LARGE_MIB SMALL_FILES SMALL_KIB');

/**
 * `count` files of `size` bytes named by `name`, random but cheap: one block of at most 64 MiB
 * (randomBytes gives less than 2 GiB at once), repeated to the size and stamped per file.
 */
function files(count: number, size: number, name: (i: number) => string): FixtureFile[] {
  const block = randomBytes(Math.min(size, 64 << 20));
  return Array.from({ length: count }, (_, i) => {
    const bytes = Buffer.alloc(size, block);
    bytes.writeUInt32BE(i, 0);
    return { path: name(i), bytes };
  });
}

const hasher = new XxhashFileHasher();
const xxh128 = (file: FixtureFile) =>
  hasher.xxh128({
    path: file.path,
    size: file.bytes.length,
    lastModified: 0,
    slice: (start, end) => new Blob([file.bytes.subarray(start, end)]),
  });

const server = await startTestServer({ DATA_DIR: dataDir });
try {
  const fx = await contractFixture(server);
  const packageOf = async (name: string, list: readonly FixtureFile[]) => {
    const { pkg } = await createPackage(server, {
      name,
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: list,
      xxh128,
    });
    await addRecipient(server, pkg.id, fx.receiver.user);
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/packages/${pkg.slug}/download/`,
      headers: fx.receiver.headers,
    });
    if (response.statusCode !== 200) throw new Error(`grant ${pkg.slug}: ${response.body}`);
    const grant = response.json<{ download_url: string; size: number }>();
    return {
      slug: pkg.slug,
      name,
      tar: new URL(grant.download_url).pathname,
      size: grant.size,
      files: list.length,
      bytes: list.reduce((sum, file) => sum + file.bytes.length, 0),
    };
  };
  const large = await packageOf(
    'One large take',
    files(1, Number(largeMib) * 2 ** 20, () => 'A001/C001_take.mov'),
  );
  const many = await packageOf(
    'Many frames',
    files(Number(smallFiles), Number(smallKib) * 1024, (i) => `f${Math.floor(i / 100)}/${i}.dpx`),
  );
  const created = await caller(server)(fx.receiver).post('/api/api_keys/', { name: 'bench' });
  if (created.statusCode !== 201) throw new Error(`api key: ${created.body}`);
  const apiKey = created.json<{ key: string }>().key;
  const recipient = { email: fx.receiver.user.email, password: PASSWORD };
  process.stdout.write(`${JSON.stringify({ apiKey, recipient, large, many })}\n`);
} finally {
  await server.close();
}
