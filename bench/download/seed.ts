/**
 * Seeds a DATA_DIR for the receive benchmark and prints, as JSON on stdout, what run.ts needs: a
 * recipient's API key, and for each package its slug and tar grant path. Each file's xxh128 is
 * recorded as the sender's engine would, so `filerunner receive` verifies every file. Runs in
 * its own process so the server measured afterwards starts with nothing of the seeding.
 *
 *   node --import tsx bench/download/seed.ts DATA_DIR LARGE_MIB SMALL_FILES SMALL_KIB
 */
import { randomBytes } from 'node:crypto';
import { XxhashFileHasher } from '@filerunner/transfer/node';
import { caller, contractFixture, startTestServer } from '../../apps/server/test/harness';
import {
  addRecipient,
  createPackage,
  type FixtureFile,
} from '../../apps/server/src/modules/downloads/download-fixtures';

const [dataDir, largeMib, smallFiles, smallKib] = process.argv.slice(2);
if (!dataDir || !smallKib)
  throw new Error('usage: seed.ts DATA_DIR LARGE_MIB SMALL_FILES SMALL_KIB');

/** `count` files of `size` bytes named by `name`, random but cheap: one block, stamped per file. */
function files(count: number, size: number, name: (i: number) => string): FixtureFile[] {
  const block = randomBytes(size);
  return Array.from({ length: count }, (_, i) => {
    const bytes = Buffer.from(block);
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
  const packageOf = async (list: readonly FixtureFile[]) => {
    const { pkg } = await createPackage(server, {
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
    return { slug: pkg.slug, tar: new URL(grant.download_url).pathname, size: grant.size };
  };
  const large = await packageOf(files(1, Number(largeMib) << 20, () => 'A001/C001_take.mov'));
  const many = await packageOf(
    files(Number(smallFiles), Number(smallKib) << 10, (i) => `f${Math.floor(i / 100)}/${i}.dpx`),
  );
  const created = await caller(server)(fx.receiver).post('/api/api_keys/', { name: 'bench' });
  if (created.statusCode !== 201) throw new Error(`api key: ${created.body}`);
  const apiKey = created.json<{ key: string }>().key;
  process.stdout.write(`${JSON.stringify({ apiKey, large, many })}\n`);
} finally {
  await server.close();
}
