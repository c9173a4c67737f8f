import { describe, expect, it, vi } from 'vitest';
import type { PickedHandle, ResumableUpload } from '@filerunner/transfer/browser';
import type { User } from '@filerunner/protocol';
import type { HttpClient } from '@filerunner/transfer';
import { storeAnswering } from '../../app/test-support/api-store';
import { initialAuthState } from '../auth/auth-slice';
import { UploadController } from './upload-controller';
import {
  controlUpload,
  findInterruptedUploads,
  pauseUploadsForSignOut,
  resumeInterruptedFromPick,
  resumeUploadsAfterSignIn,
  startPackageUpload,
} from './upload-actions';
import {
  controllerOnSilentNetwork,
  packageToSend as pkg,
  twoFilePlan as plan,
} from './test-support/silent-uploads';

// The controller with a storage that never answers: uploads stay where the person's controls
// put them, so queueing, pausing and cancelling can be watched in the store.

const picked = (path: string): PickedHandle[] => [
  { kind: 'directory', path, handle: { name: path } as FileSystemDirectoryHandle },
];

function uploadsOnSilentNetwork(kept = new Map<string, ResumableUpload>()) {
  const controller = controllerOnSilentNetwork({
    put: async (upload) => void kept.set(upload.package.slug, upload),
    delete: async (slug) => void kept.delete(slug),
    list: async (owner) => [...kept.values()].filter((u) => u.owner === owner),
  });
  const { store } = storeAnswering(() => undefined, {
    uploads: controller,
    preloadedState: { auth: { ...initialAuthState, user: { id: 7 } as User } },
  });
  const status = (id: string) => store.getState().uploads.records[id]?.status;
  return { store, kept, status, controller };
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
    // Each upload is kept for a resume after a reload: its files, and the handles of a pick.
    expect([...kept.keys()]).toEqual(['a', 'b']);
    expect(kept.get('a')).toMatchObject({
      owner: 7,
      files: [
        { path: 'Shoot/a.mov', size: 4, lastModified: 1 },
        { path: 'Shoot/b.mov', size: 4, lastModified: 1 },
      ],
      useSlabFiles: false,
      workers: 2,
      picked: picked('Shoot'),
    });
    expect(kept.get('b')!.picked).toEqual([]);
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

  it('offers an upload again after a reload, to its owner, and resumes it with the same files', async () => {
    const before = uploadsOnSilentNetwork();
    before.store.dispatch(startPackageUpload({ pkg: pkg('a'), plan, picked: [], workers: 2 }));
    await vi.waitFor(() => expect(before.kept.has('a')).toBe(true));

    // A new page over the same browser storage: nothing runs, the kept upload is offered.
    const after = uploadsOnSilentNetwork(before.kept);
    expect(await after.controller.interrupted(8)).toEqual([]);
    await after.store.dispatch(findInterruptedUploads());
    expect(after.store.getState().transfers.interrupted).toEqual([
      {
        id: 'a',
        name: 'Package a',
        files: 2,
        bytes: 8,
        handles: false,
        pickAgain: 'folder',
        resuming: false,
        problem: null,
        mismatched: [],
      },
    ]);

    // A file edited since (another date) and one not picked: named, nothing starts.
    const edited = new File(['take'], 'a.mov', { lastModified: 2 });
    Object.defineProperty(edited, 'webkitRelativePath', { value: 'Shoot/a.mov' });
    await after.store.dispatch(resumeInterruptedFromPick('a', [edited]));
    expect(after.store.getState().transfers.interrupted[0]).toMatchObject({
      resuming: false,
      problem: 'Some files are not the ones this upload started with. Please pick them again.',
      mismatched: [
        { path: 'Shoot/a.mov', reason: 'changed' },
        { path: 'Shoot/b.mov', reason: 'missing' },
      ],
    });
    expect(after.status('a')).toBeUndefined();

    const same = ['a.mov', 'b.mov'].map((name) => {
      const picked = new File(['take'], name, { lastModified: 1 });
      Object.defineProperty(picked, 'webkitRelativePath', { value: `Shoot/${name}` });
      return picked;
    });
    await after.store.dispatch(resumeInterruptedFromPick('a', same));
    expect(after.store.getState().transfers.interrupted).toEqual([]);
    await vi.waitFor(() => expect(after.status('a')).toBe('UPLOADING'));
  });

  it('pauses uploads while signed out, out of sight, and resumes them for their owner only', async () => {
    const { store, status, controller } = uploadsOnSilentNetwork();
    store.dispatch(startPackageUpload({ pkg: pkg('a'), plan, picked: [], workers: 2 }));
    await vi.waitFor(() => expect(status('a')).toBe('UPLOADING'));

    store.dispatch(pauseUploadsForSignOut());
    expect(controller.runner('a')!.record.status).toBe('PAUSED');
    // The signed-out page (or the next person) does not see it, even as it settles.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.getState().uploads.queue).toEqual([]);

    controller.resumeAfterSignIn(8, store.dispatch);
    expect(controller.runner('a')!.record.status).toBe('PAUSED');
    expect(status('a')).toBeUndefined();

    store.dispatch(resumeUploadsAfterSignIn());
    await vi.waitFor(() => expect(status('a')).toBe('UPLOADING'));
  });

  it('lets the next person on the page send at once, not behind the uploads a sign-out paused', async () => {
    const { store, status, controller } = uploadsOnSilentNetwork();
    store.dispatch(startPackageUpload({ pkg: pkg('a'), plan, picked: [], workers: 2 }));
    await vi.waitFor(() => expect(status('a')).toBe('UPLOADING'));
    store.dispatch(pauseUploadsForSignOut());

    // Someone else signs in on the same page and sends a package.
    controller.resumeAfterSignIn(8, store.dispatch);
    controller.start({ pkg: pkg('b'), plan, picked: [], workers: 2 }, store.dispatch, 8);
    await vi.waitFor(() => expect(status('b')).toBe('UPLOADING'));
    expect(controller.runner('a')!.record.status).toBe('PAUSED');

    // They sign out, and the first person, back, carries on where they were.
    store.dispatch(pauseUploadsForSignOut());
    expect(controller.runner('b')!.record.status).toBe('PAUSED');
    controller.resumeAfterSignIn(7, store.dispatch);
    await vi.waitFor(() => expect(controller.runner('a')!.record.status).toBe('UPLOADING'));
    expect(controller.runner('b')!.record.status).toBe('PAUSED');
  });

  it('learns from a refused call that the session is lost, and pauses rather than fails', async () => {
    // The session ended in the background: every call of the API answers 401.
    const signedOut: HttpClient = {
      request: async () => ({ status: 401, header: () => null, text: async () => '{}' }),
    };
    const controller = new UploadController({
      api: { baseUrl: 'http://app.test/api', headers: {} },
      ports: { http: signedOut, joinBlob: (parts) => new Blob(parts) },
    });
    const { store } = storeAnswering(() => undefined, {
      uploads: controller,
      preloadedState: { auth: { ...initialAuthState, user: { id: 7 } as User } },
    });
    store.dispatch(startPackageUpload({ pkg: pkg('a'), plan, picked: [], workers: 2 }));

    await vi.waitFor(() => expect(store.getState().uploads.records.a?.status).toBe('PAUSED'));
    expect(store.getState().uploads.records.a).toMatchObject({
      pausedFor: 'session',
      failedFiles: [],
    });
    expect(store.getState().auth).toMatchObject({ sessionLost: true, user: { id: 7 } });
  });
});
