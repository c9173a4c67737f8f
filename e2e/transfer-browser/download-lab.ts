import * as transfer from '@filerunner/transfer/browser';
import { patternBytes } from './pattern';

/**
 * Helpers of the lab page for the download side: a folder sink fed as the engine feeds it, by
 * chunks of the package's byte stream arriving in any order, several at once, each read in the
 * small pieces a streamed body gives.
 */

/** What the lab reads of a sink's failure (the engine's DownloadSinkError). */
interface DownloadSinkError {
  kind: string;
  fatal: boolean;
  message: string;
}

export interface LabMember {
  path: string;
  size: number;
  seed: number;
}

export interface UnpackOptions {
  /** `tar`: one member, the `.tar` itself. */
  mode?: 'unpack' | 'tar';
  chunkSize: number;
  /** Chunks written at once. */
  parallel: number;
  asyncWrites?: boolean;
  /** Bytes per write, as a body stream hands them over. */
  pieceSize?: number;
  /** Files in the folder the person chose to replace (the sink's `replace`). */
  replace?: string[];
  /** An earlier run claimed the package's names (the ledger's `claimed`). */
  claimed?: boolean;
  /** Stops the run, as a person's cancel does, once this many bytes are written. */
  stopAfterBytes?: number;
}

/** The byte ranges of the members' concatenated bytes that chunk `[start, end)` covers. */
function piecesOf(members: readonly LabMember[], start: number, end: number, pieceSize: number) {
  const pieces: { index: number; offset: number; length: number }[] = [];
  let base = 0;
  members.forEach((member, index) => {
    const from = Math.max(start, base);
    const to = Math.min(end, base + member.size);
    for (let at = from; at < to; at += pieceSize) {
      pieces.push({ index, offset: at - base, length: Math.min(pieceSize, to - at) });
    }
    base += member.size;
  });
  return pieces;
}

/** A fixed shuffle, so a failing order can be run again. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Unpacks `members` into `folder` through a FolderSink: out-of-order chunks, `parallel` at a
 * time; each file is closed once all its bytes are written. Answers the failed files, whether
 * `open` found each one resumable, and the sink's state changes.
 */
async function unpackInto(
  folder: FileSystemDirectoryHandle,
  members: readonly LabMember[],
  options: UnpackOptions,
) {
  const events: transfer.ExtractFileEvent[] = [];
  const open = new Set<number>();
  let mostOpen = 0;
  const sink = new transfer.FolderSink(folder, {
    mode: options.mode ?? 'unpack',
    asyncWrites: options.asyncWrites ?? false,
    replace: options.replace,
    onFileState: (event) => {
      events.push(event);
      // A file holds its place from opening until its close is done: closed, parked or failed.
      if (event.state === 'writing') open.add(event.index);
      else if (event.state !== 'closing') open.delete(event.index);
      mostOpen = Math.max(mostOpen, open.size);
    },
  });
  const { resumable } = await sink.open(
    members.map((m, index) => ({ index, path: m.path, size: m.size })),
    undefined,
    new Set(),
    options.claimed ?? false,
  );
  let writtenBytes = 0;
  const total = members.reduce((sum, m) => sum + m.size, 0);
  const left = members.map((m, index) => (resumable.has(index) ? 0 : m.size));
  const failures = new Map<number, { kind: string; fatal: boolean; message: string }>();
  const chunks: number[] = [];
  for (let start = 0; start < total; start += options.chunkSize) chunks.push(start);
  const queue = shuffled(chunks, 7);

  const runChunk = async (start: number) => {
    const end = Math.min(total, start + options.chunkSize);
    for (const piece of piecesOf(members, start, end, options.pieceSize ?? 64 * 1024)) {
      if (resumable.has(piece.index) || failures.has(piece.index)) continue;
      if (options.stopAfterBytes !== undefined && writtenBytes >= options.stopAfterBytes) {
        throw Object.assign(new Error('stopped'), { kind: 'other', fatal: true });
      }
      const member = members[piece.index]!;
      try {
        await sink.write(
          piece.index,
          piece.offset,
          patternBytes(piece.offset, piece.length, member.seed),
        );
        left[piece.index]! -= piece.length;
        writtenBytes += piece.length;
        if (left[piece.index] === 0) await sink.close(piece.index);
      } catch (error) {
        const failure = error as DownloadSinkError;
        failures.set(piece.index, {
          kind: failure.kind,
          fatal: failure.fatal,
          message: failure.message,
        });
        if (failure.fatal) throw error;
      }
    }
  };
  const workers = Array.from({ length: options.parallel }, async () => {
    for (let start = queue.shift(); start !== undefined; start = queue.shift()) {
      await runChunk(start);
    }
  });
  const ended = await Promise.all(workers).then(
    () => null,
    (error: unknown) => error as DownloadSinkError,
  );
  // Empty members and ones that failed at open never receive a write: close what is left.
  for (const [index, member] of members.entries()) {
    if (member.size === 0 && !ended) {
      await sink
        .close(index)
        .catch((error: DownloadSinkError) =>
          failures.set(index, { kind: error.kind, fatal: error.fatal, message: error.message }),
        );
    }
  }
  await sink.dispose();
  return {
    failed: [...failures].map(([index, f]) => ({ path: members[index]!.path, ...f })),
    fatal: ended ? { kind: ended.kind, message: ended.message } : null,
    resumable: [...resumable].map((index) => members[index]!.path),
    mostOpen,
    states: events.map((e) => `${e.index}:${e.state}`),
    sink,
  };
}

/** Every file under `folder`: path, size and SHA-256, sorted by path. */
async function describeFolder(folder: FileSystemDirectoryHandle, prefix = '') {
  const files: { path: string; size: number; sha256: string }[] = [];
  for await (const [name, entry] of folder.entries()) {
    const path = prefix + name;
    if (entry.kind === 'directory') {
      files.push(...(await describeFolder(entry as FileSystemDirectoryHandle, `${path}/`)));
    } else {
      const file = await (entry as FileSystemFileHandle).getFile();
      const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
      const sha256 = [...new Uint8Array(digest)]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('');
      files.push({ path, size: file.size, sha256 });
    }
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

export const downloadLab = { unpackInto, describeFolder };
