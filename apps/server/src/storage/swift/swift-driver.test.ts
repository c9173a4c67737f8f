import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedDriver } from '../embedded/embedded-driver';
import { SwiftDriver } from './swift-driver';
import { swiftEnvironment } from './swift-test-environment';

const swift = swiftEnvironment();

/** Swift-specific behaviour against a real Swift (scripts/swift-saio.sh), when one is configured. */
describe.runIf(swift !== null)('SwiftDriver against OpenStack Swift', () => {
  const container = `driver-${randomBytes(4).toString('hex')}`;
  let driver: SwiftDriver;
  const expires = () => Math.floor(Date.now() / 1000) + 600;

  beforeAll(async () => {
    const env = swift!;
    driver = await SwiftDriver.connect({
      ...env,
      allowedOrigin: 'http://127.0.0.1:5173',
      // The same proxy named by origin only: the account path is appended.
      alternativeUrls: [new URL(env.authUrl).origin],
    });
    await driver.ensureContainer(container);
  });

  afterAll(async () => {
    await driver?.deletePrefix(container, '');
  });

  it('hands out grants that work on every alternative storage URL', async () => {
    const put = driver.signTempUrl({ method: 'PUT', container, key: 'alt', expires: expires() });
    expect(put.alternativeUrls).toHaveLength(1);
    expect(put.alternativeUrls[0]).toContain('/v1/AUTH_');
    expect((await fetch(put.alternativeUrls[0]!, { method: 'PUT', body: 'via alt' })).status).toBe(
      201,
    );
    const get = driver.signTempUrl({ method: 'GET', container, key: 'alt', expires: expires() });
    expect(await (await fetch(get.url)).text()).toBe('via alt');
  });

  it("accepts URLs signed by the embedded store's driver for the same account and key", async () => {
    const embeddedSigner = new EmbeddedDriver({
      root: '/nonexistent',
      account: new URL(driver.accountUrl).pathname.split('/')[2]!,
      tempUrlKey: swift!.tempUrlKey,
      publicUrl: new URL(driver.accountUrl).origin,
      allowedOrigin: 'http://127.0.0.1:5173',
    });
    for (const digest of ['sha1', 'sha256', 'sha512'] as const) {
      const key = `embedded-signed-${digest}`;
      const put = embeddedSigner.signTempUrl({
        method: 'PUT',
        container,
        key,
        expires: expires(),
        digest,
      });
      expect((await fetch(put.url, { method: 'PUT', body: digest })).status, digest).toBe(201);
      const get = embeddedSigner.signTempUrl({
        method: 'GET',
        container,
        key,
        expires: expires(),
        digest,
      });
      expect(await (await fetch(get.url)).text()).toBe(digest);
    }
  });

  it('renews a token Swift no longer accepts', async () => {
    const stale = await SwiftDriver.connect({
      ...swift!,
      token: 'AUTH_tk00000000000000000000000000000000',
      storageUrl: driver.accountUrl,
      allowedOrigin: 'http://127.0.0.1:5173',
    });
    expect(await stale.head({ container, key: 'absent' })).toBeNull();
  });
});
