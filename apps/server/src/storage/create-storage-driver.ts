import path from 'node:path';
import { EmbeddedDriver } from './embedded/embedded-driver';
import type { StorageDriver } from './storage-driver';
import { SwiftDriver } from './swift/swift-driver';

/** Storage settings as config.ts hands them over (never read from the environment here). */
export type StorageConfig =
  | {
      readonly driver: 'embedded';
      /** DATA_DIR: objects live in `<dataDir>/objects`. */
      readonly dataDir: string;
      /** The account path segment, e.g. `AUTH_filerunner`. */
      readonly account: string;
      /** From loadEmbeddedTempUrlKey. */
      readonly tempUrlKey: string;
      /** The app's public URL; the store is served by the app under `/v1/`. */
      readonly publicUrl: string;
      readonly allowedOrigin: string;
    }
  | {
      readonly driver: 'swift';
      readonly authUrl: string;
      readonly user: string;
      readonly key: string;
      /** Overrides the storage URL auth returns (e.g. the public endpoint browsers use). */
      readonly storageUrl?: string;
      readonly token?: string;
      readonly tempUrlKey: string;
      /** Other proxy hosts of the same cluster, for spreading transfers. */
      readonly alternativeUrls?: readonly string[];
      readonly allowedOrigin: string;
    };

/** The embedded store's directory for a DATA_DIR (what embeddedStorePlugin's `root` must be). */
export function embeddedStoreRoot(dataDir: string): string {
  return path.join(dataDir, 'objects');
}

/**
 * Builds the configured driver and gets it ready: the embedded one creates its directories
 * and clears crashed writes; the Swift one logs in and sets the account's Temp-URL key.
 */
export async function createStorageDriver(config: StorageConfig): Promise<StorageDriver> {
  if (config.driver === 'embedded') {
    const driver = new EmbeddedDriver({
      root: embeddedStoreRoot(config.dataDir),
      account: config.account,
      tempUrlKey: config.tempUrlKey,
      publicUrl: config.publicUrl,
      allowedOrigin: config.allowedOrigin,
    });
    await driver.prepare();
    return driver;
  }
  return SwiftDriver.connect({
    authUrl: config.authUrl,
    user: config.user,
    key: config.key,
    ...(config.storageUrl !== undefined ? { storageUrl: config.storageUrl } : {}),
    ...(config.token !== undefined ? { token: config.token } : {}),
    tempUrlKey: config.tempUrlKey,
    ...(config.alternativeUrls !== undefined ? { alternativeUrls: config.alternativeUrls } : {}),
    allowedOrigin: config.allowedOrigin,
  });
}
