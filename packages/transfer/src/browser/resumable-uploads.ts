import type { UploadPackage } from '../core/upload/upload-context';
import type { FileHandleSource } from './file-sources';
import { sourcesFromPickedHandles, type PickedHandle } from './picked-handles';
import { matchRepickedFiles, type RecordedFile, type RepickMatch } from './repick';
import { TransferDatabaseStore } from './transfer-database';
import type { IndexedDbStoreOptions } from './indexeddb-stores';

/**
 * What a page keeps of an upload it started, beside the engine's ledger, so that after a reload
 * or a crash the same person is offered Resume: the package, the files planned (to find them
 * again), the plan's one option, and the handles they were picked through (none for files
 * from an `<input>`, which the person then picks again).
 */
export interface ResumableUpload {
  package: Required<Pick<UploadPackage, 'slug' | 'name' | 'contract'>> &
    Pick<UploadPackage, 'session_id'>;
  /** Whose upload it is (the user's id): another person signing in on this browser never sees it. */
  owner: number;
  /** The files the plan sends, as identified by path, size and last-modified time. */
  files: RecordedFile[];
  /** Whether small files went into slabs, so the same files plan the same objects again. */
  useSlabFiles: boolean;
  workers: number;
  picked: PickedHandle[];
  /** When the upload was started (epoch ms), to list interrupted uploads oldest first. */
  startedAt: number;
}

/** The resumable uploads of this browser, by package slug, in IndexedDB. */
export class IndexedDbResumableUploadStore {
  private readonly store: TransferDatabaseStore<ResumableUpload>;

  constructor(options: IndexedDbStoreOptions = {}) {
    this.store = new TransferDatabaseStore<ResumableUpload>('uploads', options.databaseName);
  }

  put(upload: ResumableUpload): Promise<void> {
    return this.store.put(upload.package.slug, upload);
  }
  get(slug: string): Promise<ResumableUpload | undefined> {
    return this.store.get(slug);
  }
  delete(slug: string): Promise<void> {
    return this.store.delete(slug);
  }

  /** The owner's uploads, oldest first. */
  async list(owner: number): Promise<ResumableUpload[]> {
    const all = await Promise.all((await this.store.keys()).map((slug) => this.store.get(slug)));
    return all
      .filter((upload): upload is ResumableUpload => upload?.owner === owner)
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/**
 * The recorded files read again through the kept handles (read permission must be granted
 * first, see `requestReadPermission`). A folder may have gained files or lost some since; the
 * match says which recorded files are still the same.
 */
export async function reopenPickedFiles(
  upload: Pick<ResumableUpload, 'files' | 'picked'>,
): Promise<RepickMatch<FileHandleSource>> {
  return matchRepickedFiles(upload.files, await sourcesFromPickedHandles(upload.picked));
}
