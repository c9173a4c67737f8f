import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  caller,
  useFixtureServer,
  type ContractFixture,
  type TestServer,
} from '../../../test/harness';
import { packageFiles, packages } from '../../db/schema';
import { addRecipient, createPackage } from '../downloads/download-fixtures';
import type { StorageDriver } from '../../storage';
import { ObjectSweeper } from '../../jobs/object-sweeper';

let server: TestServer;
let fx: ContractFixture;
const DAY = 24 * 3_600_000;

useFixtureServer((t) => ({ server, fx } = t));

async function packageWithObjects(expiresInHours: number, sentDaysAgo = 0) {
  const { pkg } = await createPackage(server, {
    contractId: fx.contract.id,
    senderId: fx.sender.user.id,
    files: 'one',
    expiresInHours,
  });
  await server.ctx.db
    .update(packages)
    .set({ sentAt: new Date(Date.now() - sentDaysAgo * DAY) })
    .where(eq(packages.id, pkg.id));
  await addRecipient(server, pkg.id, fx.receiver.user);
  const [file] = await server.ctx.db
    .select()
    .from(packageFiles)
    .where(eq(packageFiles.packageId, pkg.id));
  return { pkg, object: { container: pkg.container, key: file!.objectKey! } };
}

/** The server's storage, counting the prefix deletes it is asked for. */
function countingStorage(deletes: string[]): StorageDriver {
  const storage = server.ctx.storage;
  return new Proxy(storage, {
    get(target, name, receiver) {
      if (name === 'deletePrefix') {
        return async (container: string, prefix: string) => {
          deletes.push(`${container}/${prefix}`);
          return target.deletePrefix(container, prefix);
        };
      }
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('object sweep', () => {
  it("deletes each package's objects once past its end or storage limit, across nodes", async () => {
    const expired = await packageWithObjects(-1);
    const pastStorage = await packageWithObjects(72, 16);
    const current = await packageWithObjects(72, 1);
    const { storage } = server.ctx;
    expect(await storage.head(expired.object)).not.toBeNull();

    // Two nodes sweeping at the same moment.
    const deletes: string[] = [];
    const nodes = [1, 2].map(
      () => new ObjectSweeper(server.ctx.db, countingStorage(deletes), server.app.log),
    );
    const swept = await Promise.all(nodes.map((node) => node.sweep()));
    expect(swept.reduce((a, b) => a + b, 0)).toBe(2);
    expect(deletes.sort()).toEqual(
      [expired.pkg, pastStorage.pkg].map((p) => `${p.container}/${p.objectPrefix}`).sort(),
    );
    expect(await storage.head(expired.object)).toBeNull();
    expect(await storage.head(pastStorage.object)).toBeNull();
    expect(await storage.head(current.object)).not.toBeNull();

    expect(await nodes[0]!.sweep()).toBe(0);
    expect(deletes).toHaveLength(2);
  });

  it('leaves a package past its storage limit reading as expired everywhere', async () => {
    const { pkg } = await packageWithObjects(72, 16);
    await server.objectSweeper.sweep();
    const as = caller(server);
    const detail = (await as(fx.receiver).get(`/api/packages/received/${pkg.slug}/`)).json();
    expect(detail).toMatchObject({ expired: true, expires_soon: false });
    expect(new Date(detail.expires_date).getTime()).toBeLessThanOrEqual(Date.now());
    const list = (await as(fx.receiver).get('/api/packages/received/')).json();
    expect(list.packages.find((p: { slug: string }) => p.slug === pkg.slug)).toMatchObject({
      expired: true,
    });
    expect((await as(fx.sender).get(`/api/packages/sent/${pkg.slug}/`)).json().expired).toBe(true);
    expect((await as(fx.receiver).get(`/api/packages/${pkg.slug}/download/`)).statusCode).toBe(410);
    const activity = (await as(fx.admin).get(`/api/packages/${fx.contract.slug}/activity/`)).json();
    expect(activity.packages.find((p: { slug: string }) => p.slug === pkg.slug).expired).toBe(true);
  });
});
