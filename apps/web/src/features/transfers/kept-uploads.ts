import { IndexedDbResumableUploadStore } from '@filerunner/transfer/browser';

/**
 * Whether this browser keeps an unfinished upload of `owner`'s, read without the transfer
 * engine: nearly every start finds none, and then the engine need not load with the page. When
 * the browser's storage cannot be read, it answers yes, so that the engine looks and says why.
 */
export async function keepsUploadsOf(owner: number): Promise<boolean> {
  let store: IndexedDbResumableUploadStore | undefined;
  try {
    store = new IndexedDbResumableUploadStore();
    return (await store.list(owner)).length > 0;
  } catch {
    return true;
  } finally {
    await store?.close().catch(() => undefined);
  }
}
