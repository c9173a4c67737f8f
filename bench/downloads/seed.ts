/**
 * Seeds a DATA_DIR for the download benchmark and prints, as JSON on stdout, what run.ts needs:
 * download URLs for each package and for one large file, a signed GET of that file's object, and
 * where the same files lie on disk for the GNU tar baseline. Runs in its own process so the
 * server measured afterwards starts with nothing of the seeding in its memory.
 *
 *   node --import tsx bench/downloads/seed.ts DATA_DIR SOURCE_DIR BIG_FILES BIG_MIB SMALL_FILES SMALL_KIB
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { packageFiles } from '../../apps/server/src/db/schema';
import { contractFixture, startTestServer } from '../../apps/server/test/harness';
import {
  swiftEnvironment,
  swiftServerSettings,
} from '../../apps/server/src/storage/swift/swift-test-environment';
import {
  addRecipient,
  createPackage,
  type FixtureFile,
} from '../../apps/server/src/modules/downloads/download-fixtures';

const [dataDir, sourceDir, bigFiles, bigMib, smallFiles, smallKib] = process.argv.slice(2);
if (!dataDir || !sourceDir || !smallKib) throw new Error('usage: seed.ts DATA_DIR SOURCE_DIR …');

/** `count` files of `size` bytes named by `name`, random but cheap: one block, stamped per file. */
function files(count: number, size: number, name: (i: number) => string): FixtureFile[] {
  const block = randomBytes(size);
  return Array.from({ length: count }, (_, i) => {
    const bytes = Buffer.from(block);
    bytes.writeUInt32BE(i, 0);
    return { path: name(i), bytes };
  });
}

async function writeSource(dir: string, list: readonly FixtureFile[]) {
  for (const file of list) {
    const target = path.join(dir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.bytes);
  }
}

// With STORAGE_DRIVER=swift the objects go to the Swift that SWIFT_AUTH_URL names.
const swift = process.env.STORAGE_DRIVER === 'swift' ? swiftEnvironment() : null;
if (process.env.STORAGE_DRIVER === 'swift' && !swift)
  throw new Error('STORAGE_DRIVER=swift needs SWIFT_AUTH_URL');
const server = await startTestServer({
  DATA_DIR: dataDir,
  ...(swift ? swiftServerSettings(swift) : {}),
});
try {
  const fx = await contractFixture(server);
  const grant = async (slug: string, filePath = '') => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/packages/${slug}/download/${filePath}`,
      headers: fx.receiver.headers,
    });
    if (response.statusCode !== 200) throw new Error(`grant ${slug}: ${response.body}`);
    return new URL(response.json<{ download_url: string }>().download_url).pathname;
  };
  const packageOf = async (name: string, list: readonly FixtureFile[]) => {
    await writeSource(path.join(sourceDir, name), list);
    const { pkg } = await createPackage(server, {
      contractId: fx.contract.id,
      senderId: fx.sender.user.id,
      files: list,
    });
    await addRecipient(server, pkg.id, fx.receiver.user);
    return { pkg, list, tar: await grant(pkg.slug) };
  };

  const big = await packageOf(
    'big',
    files(Number(bigFiles), Number(bigMib) << 20, (i) => `video/take-${i}.mov`),
  );
  const many = await packageOf(
    'many',
    files(Number(smallFiles), Number(smallKib) << 10, (i) => `f${Math.floor(i / 100)}/${i}.dat`),
  );

  const first = big.list[0]!;
  const [row] = await server.ctx.db
    .select()
    .from(packageFiles)
    .where(and(eq(packageFiles.packageId, big.pkg.id), eq(packageFiles.userPath, first.path)));
  const object = server.ctx.storage.signTempUrl({
    method: 'GET',
    container: big.pkg.container,
    key: row!.objectKey!,
    expires: Math.floor(Date.now() / 1000) + 86_400,
  });
  // Where each package's objects are, for a `swift download` of the same objects.
  const objects = (pkg: typeof big.pkg) => ({ container: pkg.container, prefix: pkg.objectPrefix });
  const out = {
    big: {
      tar: big.tar,
      files: big.list.length,
      source: path.join(sourceDir, 'big'),
      ...objects(big.pkg),
    },
    many: {
      tar: many.tar,
      files: many.list.length,
      source: path.join(sourceDir, 'many'),
      ...objects(many.pkg),
    },
    file: {
      url: await grant(big.pkg.slug, first.path),
      object: new URL(object.url).pathname + new URL(object.url).search,
      bytes: first.bytes.length,
    },
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  // The named DATA_DIR stays for the measured server, which opens it next.
  await server.close();
}
