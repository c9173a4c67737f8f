import { folderOccupiedText } from './download-messages';
import type { DownloadFolder, DownloadRunner } from './download-runner';

/**
 * The download engine into a folder the person picked: the package unpacked file by file (or
 * its `.tar` kept whole), chunks fetched in parallel ranges and written where they belong, each
 * file checked against the hash its sender recorded, and a ledger in IndexedDB so that a
 * download cut off (a closed tab, a crash) fetches only what is missing when it runs again.
 * The engine and its browser parts load with the first download, not with the page.
 */
export const folderDownloadRunner: DownloadRunner = async (job) => {
  const [
    { runDownload, requestReceipt, DownloadFailedError, OccupiedFolderError, quotedNames },
    browser,
    hidden,
  ] = await Promise.all([
    import('@filerunner/transfer'),
    import('@filerunner/transfer/browser'),
    import('../hidden-settings/hidden-settings'),
  ]);
  const folder = job.folder?.handle as FileSystemDirectoryHandle | undefined;
  if (!folder)
    throw Object.assign(new Error('No folder was picked'), { kind: 'directory_handle_invalid' });
  const hasher = new browser.WorkerFileHasher();
  let outcome;
  try {
    outcome = await runDownload({
      descriptor: job.descriptor,
      sink: new browser.FolderSink(folder, {
        mode: job.method === 'tar' ? 'tar' : 'unpack',
        asyncWrites: hidden.getHiddenSettings().asyncFileWriting,
        replace: job.replace,
      }),
      http: new browser.FetchHttpClient(),
      // Kept with the folder: it says which files there are this download's own.
      ledger: new browser.IndexedDbDownloadResumeStore({ folder }),
      hasher,
      options: job.options,
      signal: job.signal,
      onProgress: job.onProgress,
    });
  } catch (error) {
    if (error instanceof DownloadFailedError && error.cause instanceof OccupiedFolderError) {
      const { files } = error.cause;
      // The person's words for it; the engine's error stays the cause, with every name.
      throw Object.assign(new Error(folderOccupiedText(quotedNames(files, 3), files.length)), {
        kind: error.kind,
        cause: error.cause,
      });
    }
    throw error;
  } finally {
    hasher.dispose?.();
  }
  // Only a whole package earns a receipt; asked in the background (see `DownloadJob.receipt`),
  // its challenge answered from the files just written. Refused, the download is still done.
  const { receipt } = job;
  if (receipt && job.descriptor.tar) {
    const proof = {
      calls: receipt.calls,
      descriptor: job.descriptor,
      mode: job.method === 'tar' ? ('tar' as const) : ('unpack' as const),
      written: new browser.FolderHandleWrittenBytes(folder),
      sha256: browser.browserSha256,
    };
    void requestReceipt(proof, outcome).then(receipt.issued, () => undefined);
  }
  return outcome;
};

/**
 * Asks for a folder within the person's click: system folders are refused and write permission
 * is asked by the picker. Null when the person closed the picker.
 */
export async function pickDownloadFolderHandle(): Promise<DownloadFolder | null> {
  const { pickDownloadFolder } = await import('@filerunner/transfer/browser');
  try {
    const handle = await pickDownloadFolder();
    return { name: handle.name, handle };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    throw error;
  }
}
