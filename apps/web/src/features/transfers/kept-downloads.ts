import { api as routes } from '@filerunner/protocol';
import { TransferDatabaseStore } from '@filerunner/transfer/browser';
import type { ApiClient } from '../../app/api-client';
import { fileDescriptor, packageDescriptor } from './grant-descriptors';
import type { DownloadDescriptor, DownloadFolder, ReceiptCalls } from './download-runner';
import type { NewDownload } from './downloads-slice';

/*
 * Downloads into a folder outlive their page: a closed tab or a crash leaves the files written
 * so far (and the engine's ledger of them) in the folder, and the next page of the same person
 * offers the download again, to continue from what is there. What it needs is kept here, in
 * IndexedDB: the record's fields, the folder's handle (structured-cloneable) and how to ask a
 * new grant, never the old grant's URL (it is a credential, and a new one is asked anyway).
 */

/** How a download's grant is asked again: the call the page used, with what it named. */
export type GrantSource =
  | { kind: 'received'; slug: string; userPath: string | null }
  | { kind: 'sent'; slug: string; userPath: string | null }
  /** The external page: the link's key is what the page itself was opened with. */
  | { kind: 'external'; slug: string; key: string; userPath: string | null };

/** A download as a later page needs it to offer it again. */
export interface KeptDownload {
  id: string;
  /** Whose it is: `user:<id>` in the app, `link:<slug>` on the external page. */
  owner: string;
  fields: Omit<NewDownload, 'identifier' | 'rootFolder'>;
  folder: DownloadFolder;
  source: GrantSource;
}

/** Where cut-off downloads are kept between pages. */
export interface DownloadKeeper {
  save(download: KeptDownload): Promise<void>;
  forget(id: string): Promise<void>;
  /** The owner's kept downloads that no open page is running (those are not cut off). */
  list(owner: string): Promise<KeptDownload[]>;
  /** Marks the download as running in this page until the answer is called. */
  hold(id: string): () => void;
}

/** The Web Lock a page holds while it runs a kept download; the browser frees it with the page. */
const lockOf = (id: string) => `filerunner-download:${id}`;

/** The keeper of a page: the transfer database's `downloads` store. */
export class IndexedDbDownloadKeeper implements DownloadKeeper {
  private readonly store = new TransferDatabaseStore<KeptDownload>('downloads');

  save(download: KeptDownload): Promise<void> {
    return this.store.put(download.id, download);
  }

  forget(id: string): Promise<void> {
    return this.store.delete(id);
  }

  async list(owner: string): Promise<KeptDownload[]> {
    // Another tab of the same person may be running one right now: it is theirs, not cut off.
    const running = new Set(
      ((await navigator.locks?.query())?.held ?? []).map((lock) => lock.name),
    );
    const found: KeptDownload[] = [];
    for (const key of await this.store.keys()) {
      const kept = await this.store.get(key);
      if (kept?.owner === owner && !running.has(lockOf(kept.id))) found.push(kept);
    }
    return found;
  }

  hold(id: string): () => void {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    void navigator.locks?.request(lockOf(id), () => released).catch(() => undefined);
    return release;
  }
}

/** Asks the grant a kept download needs, by the same call its page made. */
export async function grantFrom(api: ApiClient, source: GrantSource): Promise<DownloadDescriptor> {
  const { slug, userPath } = source;
  if (source.kind === 'external') {
    const query = { key: source.key };
    return userPath === null
      ? packageDescriptor(
          await api.call(routes.inbox.externalPackageGrant, { params: { slug }, query }),
        )
      : fileDescriptor(
          await api.call(routes.inbox.externalFileGrant, {
            params: { slug, '*': userPath },
            query,
          }),
        );
  }
  const [whole, one] =
    source.kind === 'sent'
      ? [routes.downloads.sentPackageGrant, routes.downloads.sentFileGrant]
      : [routes.downloads.packageGrant, routes.downloads.fileGrant];
  return userPath === null
    ? packageDescriptor(await api.call(whole, { params: { slug } }))
    : fileDescriptor(await api.call(one, { params: { slug, '*': userPath } }));
}

/**
 * How a kept download asks its receipt, by the same call its page would have made: a recipient's
 * or a link holder's whole package earns one; the sender's own copy and a single file do not.
 */
export function receiptFrom(api: ApiClient, source: GrantSource): ReceiptCalls | undefined {
  const { slug, userPath } = source;
  if (userPath !== null || source.kind === 'sent') return undefined;
  const params = { slug };
  if (source.kind === 'external') {
    const query = { key: source.key };
    return {
      challenge: () => api.call(routes.receipts.challengeExternal, { params, query }),
      issue: (body) => api.call(routes.receipts.issueExternal, { params, query, body }),
    };
  }
  return {
    challenge: () => api.call(routes.receipts.challenge, { params }),
    issue: (body) => api.call(routes.receipts.issue, { params, body }),
  };
}
