import type { PackageDownloadGrant } from '@filerunner/protocol';
import type { DownloadDescriptor, DownloadOptions } from '@filerunner/transfer';
import { packageDescriptor } from '../../transfers/grant-descriptors';
import type { EventRecorder, MemoryFigures } from './debug-events';

/** What one press of Download fetches: a package by its grant, or the URLs typed, one by one. */
export type DebugSource =
  | {
      readonly kind: 'package';
      readonly name: string;
      readonly grant: () => Promise<PackageDownloadGrant>;
    }
  | { readonly kind: 'url'; readonly url: string };

export interface DebugRun {
  readonly sources: readonly DebugSource[];
  readonly folder: FileSystemDirectoryHandle;
  /** Unpack a package's tar into the folder as it arrives; off keeps the `.tar` whole. */
  readonly untar: boolean;
  /** The folder sink's async writes (Write Files Asynchronously). */
  readonly asyncWrites: boolean;
  readonly options: Partial<DownloadOptions>;
  readonly recorder: EventRecorder;
  readonly signal: AbortSignal;
}

/** The next download of a run starts this long after the previous one ended. */
export const NEXT_DOWNLOAD_DELAY_MS = 500;

/**
 * The URLs of the textarea: one a line, blank lines ignored.
 */
export function urlsOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Chromium's heap figures, or null where the browser does not tell them. */
export function memoryNow(): MemoryFigures | null {
  const memory = (
    performance as Performance & {
      memory?: { usedJSHeapSize: number; totalJSHeapSize: number; jsHeapSizeLimit: number };
    }
  ).memory;
  return memory
    ? {
        usedBytes: memory.usedJSHeapSize,
        totalBytes: memory.totalJSHeapSize,
        limitBytes: memory.jsHeapSizeLimit,
      }
    : null;
}

/** The name a URL's file is saved under: the last part of its path, else `download`. */
export function filenameOfUrl(url: URL): string {
  const last = url.pathname
    .split('/')
    .filter((part) => part !== '')
    .at(-1);
  try {
    return last ? decodeURIComponent(last) : 'download';
  } catch {
    return last ?? 'download';
  }
}

/**
 * A typed URL as the engine downloads it: one file, its size from a HEAD.
 * @throws Error saying what is wrong with it, in the person's words (the URL itself is left out
 *   of the message, which is recorded: a storage URL may carry a signature).
 */
async function urlDescriptor(text: string, signal: AbortSignal): Promise<DownloadDescriptor> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('A URL is not a web address (it must start with http:// or https://).');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('A URL is not a web address (it must start with http:// or https://).');
  }
  const filename = filenameOfUrl(url);
  let response: Response;
  try {
    response = await fetch(url, { method: 'HEAD', signal, credentials: 'omit' });
  } catch (error) {
    signal.throwIfAborted();
    throw new Error(`${filename}: no answer from ${url.host} (${messageOf(error)})`, {
      cause: error,
    });
  }
  if (!response.ok) throw new Error(`${filename}: ${url.host} answered HTTP ${response.status}`);
  const size = Number(response.headers.get('content-length'));
  if (!Number.isSafeInteger(size) || response.headers.get('content-length') === null) {
    throw new Error(`${filename}: ${url.host} did not tell the file's size`);
  }
  return { downloadUrl: url.href, filename, size };
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * Runs the download engine for each source in turn into the folder, recording every event it
 * tells, every progress (with the heap at that moment) and every unpacked file's state. States
 * go PREPARING, DOWNLOADING, and back to IDLE at the end, an abort or a failure (recorded with its
 * cause, then thrown). The run's records are all in the store when it settles.
 */
export async function runDebugDownload(run: DebugRun): Promise<void> {
  const { recorder, signal } = run;
  const [{ runDownload }, browser] = await Promise.all([
    import('@filerunner/transfer'),
    import('@filerunner/transfer/browser'),
  ]);
  const hasher = new browser.WorkerFileHasher();
  recorder.record({ type: 'state', state: 'PREPARING' });
  try {
    for (const [i, source] of run.sources.entries()) {
      if (i > 0) await sleep(NEXT_DOWNLOAD_DELAY_MS, signal);
      const descriptor =
        source.kind === 'package'
          ? packageDescriptor(await source.grant())
          : await urlDescriptor(source.url, signal);
      signal.throwIfAborted();
      const name = source.kind === 'package' ? source.name : descriptor.filename;
      const unpack = run.untar && descriptor.tar !== undefined;
      recorder.record({
        type: 'download-started',
        name,
        totalBytes: descriptor.size,
        untar: unpack,
        asyncWrites: run.asyncWrites,
      });
      if (i === 0) recorder.record({ type: 'state', state: 'DOWNLOADING' });
      const outcome = await runDownload({
        descriptor,
        sink: new browser.FolderSink(run.folder, {
          mode: unpack ? 'unpack' : 'tar',
          asyncWrites: run.asyncWrites,
          onFileState: ({ index, path, state }) =>
            recorder.record({ type: 'file-state', index, path, state }),
        }),
        http: new browser.FetchHttpClient(),
        hasher,
        options: run.options,
        signal,
        onProgress: (progress) =>
          recorder.record({ type: 'progress', progress, memory: memoryNow() }),
        onEvent: (event) => recorder.record(event),
      });
      recorder.record({ type: 'download-finished', name, outcome });
    }
  } catch (error) {
    recorder.record(
      signal.aborted
        ? { type: 'download-aborted' }
        : { type: 'download-failed', message: messageOf(error) },
    );
    throw error;
  } finally {
    hasher.dispose?.();
    recorder.record({ type: 'state', state: 'IDLE' });
    await recorder.flush();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
