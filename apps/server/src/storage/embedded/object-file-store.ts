import { mkdir, readFile, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ObjectLocation } from '../storage-driver';
import {
  openObjectFile,
  publishObjectFile,
  readObjectRecord,
  type NewObjectRecord,
  type ObjectRecord,
  type OpenObjectFile,
  type WriteLimits,
} from './object-file';
import {
  CONTAINER_METADATA_FILE,
  DIRECTORY_SUFFIX,
  OBJECT_SUFFIX,
  containerDirectory,
  isValidAccountName,
  objectFilePath,
  prefixDirectory,
} from './object-path';
import { newTempPath, removeStaleTempFiles } from './temp-files';
import {
  readSmallObject,
  readSmallObjectsInto,
  type ObjectSlice,
  type PlacedSlice,
} from './small-object-reader';

/** A container's settings, kept in `<container>/.container.json`. */
export interface ContainerRecord {
  /** Origins allowed by CORS (Swift: X-Container-Meta-Access-Control-Allow-Origin). */
  readonly allowedOrigins: readonly string[];
  /** Swift: X-Container-Meta-Access-Control-Expose-Headers. */
  readonly exposedHeaders: readonly string[];
  readonly maxAgeSeconds?: number;
}

/** Swift's default max_file_size (5 GiB + 2 bytes). */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 3 + 2;

/**
 * The embedded store's files under `<root>` for one account. Holds no state in memory, so the
 * HTTP plugin and the server-side driver can each have one over the same directory.
 */
export class ObjectFileStore {
  readonly tempDir: string;

  constructor(
    readonly root: string,
    readonly account: string,
  ) {
    if (!isValidAccountName(account)) throw new Error(`invalid account name: ${account}`);
    this.tempDir = path.join(root, '.tmp');
  }

  /** Creates the directories and removes what crashed writers left behind. */
  async prepare(): Promise<void> {
    await mkdir(path.join(this.root, this.account), { recursive: true });
    await mkdir(this.tempDir, { recursive: true });
    await removeStaleTempFiles(this.tempDir);
  }

  private containerDir(container: string): string {
    return containerDirectory(this.root, this.account, container);
  }

  async readContainer(container: string): Promise<ContainerRecord | null> {
    try {
      const text = await readFile(
        path.join(this.containerDir(container), CONTAINER_METADATA_FILE),
        'utf8',
      );
      return JSON.parse(text) as ContainerRecord;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    }
  }

  async writeContainer(container: string, record: ContainerRecord): Promise<void> {
    const dir = this.containerDir(container);
    await mkdir(dir, { recursive: true });
    const temp = newTempPath(this.tempDir);
    await writeFile(temp, JSON.stringify(record), { flush: true });
    await rename(temp, path.join(dir, CONTAINER_METADATA_FILE));
  }

  private filePath(location: ObjectLocation): string {
    return objectFilePath(this.containerDir(location.container), location.key);
  }

  /** Publishes an object atomically; the container must exist. */
  async writeObject(
    location: ObjectLocation,
    record: NewObjectRecord,
    body: Readable | Buffer,
    limits: WriteLimits,
  ): Promise<ObjectRecord> {
    return publishObjectFile(
      { tempDir: this.tempDir, filePath: this.filePath(location) },
      record,
      body,
      limits,
    );
  }

  /** Opens an object for reading; null when absent or past its X-Delete-At. */
  async openObject(location: ObjectLocation): Promise<OpenObjectFile | null> {
    const opened = await openObjectFile(this.filePath(location));
    if (opened && isExpired(opened.record)) {
      await opened.handle.close();
      return null;
    }
    return opened;
  }

  /** Reads a small part of an object whole (see readSmallObject); null when absent or expired. */
  async readObjectSlice(
    location: ObjectLocation,
    offset: number,
    length: number,
  ): Promise<ObjectSlice | null> {
    const slice = await readSmallObject(this.filePath(location), offset, length);
    return slice && !isExpired(slice.record) ? slice : null;
  }

  /**
   * Reads small parts of objects into one buffer at their places (see readSmallObjectsInto); an
   * absent or expired object answers null.
   */
  async readObjectSlicesInto(
    target: ArrayBuffer,
    reads: ReadonlyArray<{ location: ObjectLocation; offset: number; length: number; at: number }>,
  ): Promise<{ target: ArrayBuffer; slices: PlacedSlice[] }> {
    const answer = await readSmallObjectsInto(
      target,
      reads.map((read) => ({
        path: this.filePath(read.location),
        offset: read.offset,
        length: read.length,
        at: read.at,
      })),
    );
    const slices = answer.slices.map((slice) =>
      slice && !(slice instanceof Error) && isExpired(slice.record) ? null : slice,
    );
    return { target: answer.target, slices };
  }

  async statObject(location: ObjectLocation): Promise<ObjectRecord | null> {
    const record = await readObjectRecord(this.filePath(location));
    return record && !isExpired(record) ? record : null;
  }

  /** Removes an object file and the directories its removal left empty. */
  async removeObject(location: ObjectLocation): Promise<boolean> {
    const file = this.filePath(location);
    try {
      await unlink(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return false;
      throw error;
    }
    await this.pruneEmptyDirectories(path.dirname(file), this.containerDir(location.container));
    return true;
  }

  private async pruneEmptyDirectories(from: string, stopAt: string): Promise<void> {
    for (let dir = from; dir.startsWith(stopAt + path.sep); dir = path.dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        // Not empty (or a writer just refilled it): the directories above stay too.
        return;
      }
    }
  }

  /** Every object (including expired ones) whose key starts with the prefix. */
  async *listObjects(container: string, keyPrefix: string): AsyncGenerator<ObjectRecord> {
    const containerDir = this.containerDir(container);
    const pending = [prefixDirectory(containerDir, keyPrefix)];
    while (pending.length > 0) {
      const dir = pending.pop() as string;
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory() && entry.name.endsWith(DIRECTORY_SUFFIX)) {
          pending.push(full);
        } else if (entry.isFile() && entry.name.endsWith(OBJECT_SUFFIX)) {
          const record = await readObjectRecord(full);
          if (record && record.key.startsWith(keyPrefix)) yield record;
        }
      }
    }
  }

  /** Removes the container's directory when it holds nothing but its settings. */
  async removeContainerIfEmpty(container: string): Promise<boolean> {
    const dir = this.containerDir(container);
    const entries = await readdir(dir).catch(() => null);
    if (!entries) return false;
    if (entries.some((name) => name !== CONTAINER_METADATA_FILE)) return false;
    await rm(dir, { recursive: true, force: true });
    return true;
  }
}

function isExpired(record: ObjectRecord): boolean {
  return record.deleteAt !== undefined && record.deleteAt * 1000 <= Date.now();
}
