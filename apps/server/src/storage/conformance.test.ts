import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describeStorageConformance } from './conformance/storage-conformance';
import { createStorageDriver, embeddedStoreRoot } from './create-storage-driver';
import { embeddedStorePlugin } from './embedded/embedded-store-plugin';
import { swiftEnvironment } from './swift/swift-test-environment';

const ALLOWED_ORIGIN = 'http://127.0.0.1:5173';

describeStorageConformance('embedded store', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storage-conformance-'));
  const tempUrlKey = randomBytes(16).toString('hex');
  const app = Fastify();
  // No store-wide origin: CORS comes from the containers' metadata, as on a provider's Swift.
  await app.register(embeddedStorePlugin, {
    root: embeddedStoreRoot(dataDir),
    account: 'AUTH_filerunner',
    tempUrlKey,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const driver = await createStorageDriver({
    driver: 'embedded',
    dataDir,
    account: 'AUTH_filerunner',
    tempUrlKey,
    publicUrl: address,
    allowedOrigin: ALLOWED_ORIGIN,
  });
  return {
    driver,
    allowedOrigin: ALLOWED_ORIGIN,
    tempUrlKey,
    close: async () => {
      await driver.close();
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

const swift = swiftEnvironment();

describeStorageConformance(
  'OpenStack Swift (SWIFT_AUTH_URL)',
  async () => {
    if (!swift) throw new Error('unreachable: the suite only runs with SWIFT_AUTH_URL');
    const driver = await createStorageDriver({
      driver: 'swift',
      ...swift,
      allowedOrigin: ALLOWED_ORIGIN,
    });
    return {
      driver,
      allowedOrigin: ALLOWED_ORIGIN,
      tempUrlKey: swift.tempUrlKey,
      close: () => driver.close(),
    };
  },
  swift !== null,
);
