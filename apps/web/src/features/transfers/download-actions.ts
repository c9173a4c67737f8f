import type { ThunkExtra } from '../../app/thunk';
import type { DownloadRequest, DownloadRetry } from './download-controller';
import type { DownloadFolder } from './download-runner';

/*
 * The download queue's thunks. They ask only for the queue in the store's extra, so the external
 * page's store (the API cache and the downloads alone) runs them as the app's does.
 */
type Extra = Pick<ThunkExtra, 'downloads'>;

/** Queues a download; answers its identifier and when the server gave or refused its grant. */
export function queueDownload(request: DownloadRequest) {
  return (_dispatch: unknown, _getState: unknown, extra: Extra) => extra.downloads.enqueue(request);
}

/** Asks the person for a folder: dispatch it from the click itself (the picker needs one). */
export function pickDownloadFolder() {
  return (_dispatch: unknown, _getState: unknown, extra: Extra): Promise<DownloadFolder | null> =>
    extra.downloads.pickFolder();
}

export function cancelDownload(id: string) {
  return (_dispatch: unknown, _getState: unknown, extra: Extra) => extra.downloads.cancel(id);
}

/** Queues a Failed download again, ahead of the queue: as before, as a `.tar`, or by the browser. */
export function retryDownload(id: string, how?: Exclude<DownloadRetry, { kind: 'folder' }>) {
  return (_dispatch: unknown, _getState: unknown, extra: Extra) => extra.downloads.retry(id, how);
}

/**
 * Select download folder (a queued download) or Download to new folder (a failed one): the
 * picker first, within the click; dismissing it changes nothing.
 */
export function moveDownloadToFolder(id: string) {
  return async (_dispatch: unknown, _getState: unknown, extra: Extra): Promise<void> => {
    const folder = await extra.downloads.pickFolder();
    if (!folder) return;
    extra.downloads.placeInFolder(id, folder);
    extra.downloads.retry(id, { kind: 'folder', folder });
  };
}

/**
 * Keeps `owner`'s folder downloads from now on and offers again the ones an earlier page of
 * theirs left unfinished (`user:<id>` in the app, `link:<slug>` on the external page).
 */
export function restoreDownloads(owner: string) {
  return (_dispatch: unknown, _getState: unknown, extra: Extra) => extra.downloads.restore(owner);
}
