export * from './storage-driver';
export { PlacedReadError, readPlaced, shortRead, type PlacedRead } from './placed-reads';
export {
  createStorageDriver,
  embeddedStoreRoot,
  type StorageConfig,
} from './create-storage-driver';
export { loadEmbeddedTempUrlKey, EMBEDDED_TEMPURL_KEY_FILE } from './tempurl-key';
export { embeddedStorePlugin, type EmbeddedStoreOptions } from './embedded/embedded-store-plugin';
export { EmbeddedDriver } from './embedded/embedded-driver';
export type { WriteAdmission, PrefixBudget } from './embedded/write-allowance';
export {
  StoreFaults,
  cutResponseBody,
  injectFault,
  INJECTED_UNAVAILABLE_BODY,
  type StoreFaultCounts,
} from './embedded/faults';
export { SwiftDriver } from './swift/swift-driver';
export { SANDBOXED_BYTES_HEADERS, sandboxBytes } from './sandboxed-bytes';
export {
  FreeSpace,
  floorBytes,
  parseFreeFloor,
  type FreeFloorSetting,
  type SpaceAdmission,
  type VolumeSpace,
} from './free-space';
