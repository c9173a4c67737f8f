import { describe, expect, it, vi } from 'vitest';
import type { SenderPackage } from '@filerunner/protocol';
import { planUpload, type ByteSource, type HttpClient } from '@filerunner/transfer';
import type { PickedHandle } from '@filerunner/transfer/browser';
import { storeAnswering } from '../../app/test-support/api-store';
import { controlUpload, startPackageUpload } from './upload-actions';
import { UploadController } from './upload-controller';

// The controller with a storage that never answers: uploads stay where the person's controls
// put them, so queueing, pausing and cancelling can be watched in the store.

/** Requests hang until aborted, as on a network that has gone quiet. */
const silentNetwork: HttpClient = {
  request: ({ signal }) =>
    new Promise((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
};

const file = (path: string): ByteSource => ({
  path,
  size: 4,
  lastModified: 1,
  slice: (start, end) => new Blob(['take'.slice(start, end)]),
});
const plan = planUpload([file('Shoot/a.mov'), file('Shoot/b.mov')]);
const pkg = (slug: string) =>
  ({ slug, name: `Package ${slug}`, contract: { slug: 'demo' }, session_id: 's' }) as SenderPackage;
const picked = (path: string): PickedHandle[] => [
  { kind: 'directory', path, handle: { name: path } as FileSystemDirectoryHandle },
];

function uploadsOnSilentNetwork() {
  const kept = new Map<string, readonly PickedHandle[]>();
  const controller = new UploadController({
    api: { baseUrl: 'http://app.test/api', headers: {} },
    ports: { http: silentNetwork, joinBlob: (parts) => new Blob(parts) },
    handles: {
      put: async (key, handles) => void kept.set(key, handles),
      delete: async (key) => void kept.delete(key),
    },
  });
  const { store } = storeAnswering(() => undefined, { uploads: controller });
  const status = (id: string) => store.getState().uploads.records[id]?.status;
  return { store, kept, status };
}

describe('the upload controller', () => {
  it('queues sent packages one behind another and opens the queue for the first', async () => {
    const { store, kept, status } = uploadsOnSilentNetwork();
    expect(store.getState().transfers.panelExpanded).toBe(false);
    store.dispatch(
      startPackageUpload({ pkg: pkg('a'), plan, picked: picked('Shoot'), workers: 2 }),
    );
    store.dispatch(startPackageUpload({ pkg: pkg('b'), plan, picked: [], workers: 2 }));

    await vi.waitFor(() => expect(status('a')).toBe('UPLOADING'));
    expect(status('b')).toBe('QUEUED');
    expect(store.getState().uploads.queue).toEqual(['a', 'b']);
    expect(store.getState().uploads.records.a!.progress.totalFiles).toBe(2);
    expect(store.getState().transfers.panelExpanded).toBe(true);
    // The handles of a pick are kept for a resume; a plain input gives none to keep.
    expect([...kept.keys()]).toEqual(['a']);
  });

  it('passes pause and cancel on, and drops a cancelled upload and its handles', async () => {
    const { store, kept, status } = uploadsOnSilentNetwork();
    store.dispatch(startPackageUpload({ pkg: pkg('a'), plan, picked: picked('A'), workers: 2 }));
    store.dispatch(startPackageUpload({ pkg: pkg('b'), plan, picked: picked('B'), workers: 2 }));
    await vi.waitFor(() => expect(status('a')).toBe('UPLOADING'));

    expect(store.dispatch(controlUpload('b', 'pause'))).toBe(false);
    expect(store.dispatch(controlUpload('b', 'cancel'))).toBe(true);
    await vi.waitFor(() => expect(store.getState().uploads.queue).toEqual(['a']));
    await vi.waitFor(() => expect([...kept.keys()]).toEqual(['a']));

    expect(store.dispatch(controlUpload('a', 'pause'))).toBe(true);
    await vi.waitFor(() => expect(status('a')).toBe('PAUSED'));
    expect(store.dispatch(controlUpload('a', 'cancel'))).toBe(true);
    await vi.waitFor(() => expect(store.getState().uploads.queue).toEqual([]));
    await vi.waitFor(() => expect(kept.size).toBe(0));
    expect(store.dispatch(controlUpload('a', 'resume'))).toBe(false);
  });
});
