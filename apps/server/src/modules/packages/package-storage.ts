import type { StorageDriver } from '../../storage';

/** The container of packages sent without a chosen storage location. */
export const DEFAULT_PACKAGE_CONTAINER = 'filerunner-packages';

const ensured = new WeakMap<StorageDriver, Promise<void>>();

/**
 * Makes sure the default container exists (with its CORS rules) once per driver, on the first
 * package rather than at start-up, so a storage outage never stops the server from starting.
 * A failure is forgotten, so the next package tries again.
 */
export async function ensurePackageContainer(storage: StorageDriver): Promise<string> {
  let pending = ensured.get(storage);
  if (!pending) {
    pending = storage.ensureContainer(DEFAULT_PACKAGE_CONTAINER);
    ensured.set(storage, pending);
    pending.catch(() => ensured.delete(storage));
  }
  await pending;
  return DEFAULT_PACKAGE_CONTAINER;
}
