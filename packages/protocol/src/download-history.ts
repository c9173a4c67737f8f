import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam } from './api/fields';
import { recipientDownload } from './inbox';
import { deliveryReceipt } from './receipts';

/**
 * The sender's download history of a package, in more depth than the recipient list carries:
 * for each download, which of the package's files it delivered whole and what the recipient's
 * engine said when it checked them (from the signed receipt it asked for).
 */

/**
 * What the recipient's engine found: every file matched its recorded hash (`verified`), some
 * did not or could not be written (`failed`), or nothing was checked or reported (`unverified`:
 * a plain browser download, a single file, files without a recorded hash, or no receipt).
 */
export const downloadVerification = z.enum(['verified', 'unverified', 'failed']);
export type DownloadVerification = z.infer<typeof downloadVerification>;

export const downloadHistoryEntry = recipientDownload.extend({
  /** The whole package as a tar, or one file of it. */
  kind: z.enum(['package', 'file']),
  /** How many of the package's files this download delivered, every byte of each. */
  files_covered: z.number(),
  /**
   * Which files it delivered, as indexes into the history's `files`; null when it delivered
   * all of them (the list would only repeat the package's).
   */
  covered: z.array(z.number()).nullable(),
  verification: downloadVerification,
  /** The receipt the recipient's engine asked for at the end of this download, if any. */
  receipt: deliveryReceipt.nullable(),
});
export type DownloadHistoryEntry = z.infer<typeof downloadHistoryEntry>;

export const recipientDownloadHistory = z.object({
  /** The same id as the recipient's in the sent package. */
  id: z.number(),
  email: z.string(),
  /** Oldest first, as the recipient list has them. */
  downloads: z.array(downloadHistoryEntry),
});
export type RecipientDownloadHistory = z.infer<typeof recipientDownloadHistory>;

export const downloadHistory = z.object({
  /** The package's files, in the tar's order: what `covered` points into. */
  files: z.array(z.string()),
  recipients: z.array(recipientDownloadHistory),
});
export type DownloadHistory = z.infer<typeof downloadHistory>;

export const downloadHistoryRoutes = {
  packageHistory: defineRoute({
    method: 'GET',
    path: '/packages/:slug/download-history/',
    summary: "A sent package's downloads: the files each delivered, verification, receipts",
    auth: 'user',
    params: z.object({ slug: slugParam }),
    status: 200,
    response: downloadHistory,
  }),
};
