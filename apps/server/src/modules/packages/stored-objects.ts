import { sendMessages } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';
import type { ListedObject, ObjectLocation, StorageDriver } from '../../storage';
import type { PackageDeclaration } from './declared-objects';

/** A file the package recorded as stored: where its bytes are and the etag it was reported with. */
export interface RecordedFile {
  readonly userPath: string;
  readonly objectKey: string | null;
  readonly etag: string | null;
}

export interface Reconciled {
  /** Objects removed from the package's prefix because no recorded file uses them. */
  readonly deleted: number;
  /** Bytes the recorded files use in storage (manifests, which the server writes, not counted). */
  readonly storedBytes: number;
}

/** Deletes run this many at a time. */
const DELETE_CONCURRENCY = 8;

/**
 * Holds a package's storage to what it declared, when it is sent. On Swift a prefix grant writes
 * any name of any size under the package's prefix, so the store cannot refuse what the embedded
 * store refuses by itself; here, for both drivers, every object under the prefix that no recorded
 * file uses (its whole object, the segments its manifest lists, its slab) or that is larger than
 * its allowance is deleted, and the package is refused (nothing sent) when a recorded object is
 * missing, not the one reported or too large, or the recorded objects together hold more than
 * the declaration allows. A refused sender uploads those files again, or sends a new package.
 *
 * The listing is read once; a recorded object it misses or shows with another etag is looked up
 * with a HEAD before anything is refused, because Swift's listings lag behind writes.
 */
export async function reconcileStoredObjects(
  storage: StorageDriver,
  pkg: { readonly container: string; readonly objectPrefix: string },
  declaration: PackageDeclaration,
  recorded: readonly RecordedFile[],
): Promise<Reconciled> {
  const listed = new Map<string, ListedObject>();
  for await (const item of storage.listObjects(pkg.container, pkg.objectPrefix)) {
    listed.set(item.key, item);
  }
  const at = (key: string): ObjectLocation => ({ container: pkg.container, key });

  /** The object as the listing shows it, or (when the listing has not caught up) a HEAD. */
  const lookUp = async (key: string): Promise<ListedObject | null> => {
    const item = listed.get(key);
    if (item) return item;
    const info = await storage.head(at(key));
    return info && { key, sizeBytes: info.sizeBytes, etag: info.etag, isManifest: info.isManifest };
  };
  const oversized: string[] = [];
  /**
   * Checks a plain object a recorded file uses: still the one reported (etag), within its
   * allowance. Answers its size, or the problem; an object larger than its allowance is deleted
   * (with the package refused), whatever it holds, so its bytes do not stay until the end.
   */
  const checkPlain = async (key: string, etag: string | null): Promise<number | string> => {
    let item = listed.get(key);
    if (!item || item.isManifest || etag === null || !sameEtag(item.etag, etag)) {
      const info = await storage.head(at(key));
      item = info
        ? { key, sizeBytes: info.sizeBytes, etag: info.etag, isManifest: info.isManifest }
        : undefined;
    }
    if (!item) return sendMessages.objectMissing;
    const allowance = declaration.allowanceFor(key.slice(pkg.objectPrefix.length));
    if ('refused' in allowance || item.sizeBytes > allowance.maxBytes) {
      oversized.push(key);
      return sendMessages.objectTooLarge;
    }
    if (item.isManifest || etag === null || !sameEtag(item.etag, etag)) {
      return sendMessages.objectChanged;
    }
    return item.sizeBytes;
  };

  const byObject = new Map<string, { etag: string | null; paths: string[] }>();
  for (const file of recorded) {
    if (file.objectKey === null) continue;
    const entry = byObject.get(file.objectKey) ?? { etag: file.etag, paths: [] };
    entry.paths.push(file.userPath);
    byObject.set(file.objectKey, entry);
  }

  const used = new Set<string>();
  const problems: string[] = [];
  let storedBytes = 0;
  for (const [key, { etag, paths }] of byObject) {
    used.add(key);
    const name = paths.join(', ');
    const object = await lookUp(key);
    if (object?.isManifest) {
      // Only the server writes manifests (Swift refuses X-Static-Large-Object on a grant's PUT),
      // so the segments of the recorded manifest are the ones the file was joined from; each
      // must still hold the bytes it was joined with.
      const still = sameEtag(object.etag, etag ?? '')
        ? object
        : await storage
            .head(at(key))
            .then((info) => (info && sameEtag(info.etag, etag ?? '') ? info : null));
      const manifest = still && (await storage.readManifest(at(key)));
      if (!manifest) {
        problems.push(`${name}: ${sendMessages.objectChanged}`);
        continue;
      }
      for (const segment of manifest) {
        if (!('object' in segment)) continue;
        used.add(segment.object.key);
        const size = await checkPlain(segment.object.key, segment.etag ?? null);
        if (typeof size === 'string') problems.push(`${name}: ${size}`);
        else storedBytes += size;
      }
      continue;
    }
    const size = await checkPlain(key, etag);
    if (typeof size === 'string') problems.push(`${name}: ${size}`);
    else storedBytes += size;
  }

  const unused = [...listed.keys()].filter((key) => !used.has(key));
  unused.push(...oversized);
  // Manifests alone: a segment an unused manifest shares with a recorded one must stay.
  await inParallel(unused, (key) => storage.deleteObject(at(key), { keepSegments: true }));

  if (problems.length === 0 && storedBytes > declaration.bytes) {
    problems.push(
      `${sendMessages.storedBeyondDeclared} (${storedBytes} bytes stored, at most ${declaration.bytes})`,
    );
  }
  if (problems.length > 0) {
    throw new ApiError(400, 'validation', {
      detail: sendMessages.storageNotAsDeclared,
      files: [...new Set(problems)].slice(0, 100),
    });
  }
  return { deleted: unused.length, storedBytes };
}

function sameEtag(a: string, b: string): boolean {
  return a.replace(/"/g, '').toLowerCase() === b.replace(/"/g, '').toLowerCase();
}

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, items.length) }, worker));
}
