import type { DownloadFolder, DownloadRunner } from './download-runner';

/**
 * The download engine into a folder the person picked: the package unpacked file by file (or
 * its `.tar` kept whole), chunks fetched in parallel ranges and written where they belong, each
 * file checked against the hash its sender recorded, and a ledger in IndexedDB so that a
 * download cut off (a closed tab, a crash) fetches only what is missing when it runs again.
 * The engine and its browser parts load with the first download, not with the page.
 */
export const folderDownloadRunner: DownloadRunner = async (job) => {
  const [{ runDownload, requestReceipt }, browser, hidden] = await Promise.all([
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
      }),
      http: new browser.FetchHttpClient(),
      ledger: new browser.IndexedDbDownloadResumeStore(),
      hasher,
      options: job.options,
      signal: job.signal,
      onProgress: job.onProgress,
    });
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
