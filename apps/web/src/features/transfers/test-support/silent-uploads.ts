import type { SenderPackage } from '@filerunner/protocol';
import { planUpload, type ByteSource, type HttpClient } from '@filerunner/transfer';
import { storeAnswering, type StoreOptions } from '../../../app/test-support/api-store';
import { startPackageUpload } from '../upload-actions';
import { UploadController, type ResumableUploadKeeper } from '../upload-controller';

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

/** The plan of two small files, `Shoot/a.mov` and `Shoot/b.mov`. */
export const twoFilePlan = planUpload([file('Shoot/a.mov'), file('Shoot/b.mov')]);

/** The package `slug` as its creation answers it, as far as an upload reads it. */
export const packageToSend = (slug: string) =>
  ({ slug, name: `Package ${slug}`, contract: { slug: 'demo' }, session_id: 's' }) as SenderPackage;

/** The real upload controller and engine over a network that never answers. */
export function controllerOnSilentNetwork(resumable?: ResumableUploadKeeper): UploadController {
  return new UploadController({
    api: { baseUrl: 'http://app.test/api', headers: {} },
    ports: { http: silentNetwork, joinBlob: (parts) => new Blob(parts) },
    ...(resumable ? { resumable } : {}),
  });
}

/**
 * The app's store with the real upload controller and engine over a network that never answers:
 * uploads stay where the person's controls (or the guards) put them. `send` queues a package.
 */
export function uploadsOnSilentNetwork(options: Omit<StoreOptions, 'uploads'> = {}) {
  const controller = controllerOnSilentNetwork();
  const { store } = storeAnswering(() => undefined, { ...options, uploads: controller });
  const send = (slug: string) => {
    const pkg = packageToSend(slug);
    store.dispatch(startPackageUpload({ pkg, plan: twoFilePlan, picked: [], workers: 2 }));
  };
  const status = (slug: string) => store.getState().uploads.records[slug]?.status;
  return { store, send, status };
}
