import { z } from 'zod';
import { defineRoute } from './api/route';
import { idParam, int32Max, slugParam, text } from './api/fields';
import { fileDownloadGrant, packageDownloadGrant } from './downloads';
import { inboxMessages } from './inbox-messages';
import { limits } from './limits';
import { packageRecipientInput, sendMessages } from './packages';

/** Files of a package listed per page (the file list's 'Load more'). */
export const packageFilesPageSize = 100;
/** List totals are counted up to this many packages; beyond it `total` reads "at least". */
export const listCountCap = 1000;
/** Unseen packages are counted up to this many per contract. */
export const unseenCountCap = 100;
/** How much longer one extension keeps a package, within its storage limit. */
export const expiryExtensionDays = 7;

const page = z.coerce.number().int().min(1).max(100_000).default(1);
/** A query flag as a link or the client writes it: true/false, 1/0, or bare. */
const queryFlag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === '')
  .optional();
/** An external recipient's link key: 43 base64url characters, as the mail's link carries it. */
const linkKey = text().min(1).max(200);

export const receivedListQuery = z.object({
  page,
  /** The client starts its list over (a project switch, a refresh): answered from page 1. */
  clear: queryFlag,
  contract_slug: slugParam.optional(),
});
export const sentListQuery = z.object({ page, contract_slug: slugParam.optional() });
export const packageFilesQuery = z.object({ page });
export const externalFilesQuery = z.object({ page, key: linkKey });
/** `check` asks only whether a download may start; the answer is the same grant. */
export const externalGrantQuery = z.object({ key: linkKey, check: queryFlag });

export const downloadStatus = z.enum(['none', 'partial', 'complete']);
export type DownloadStatus = z.infer<typeof downloadStatus>;

const packageCore = {
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  /** Null once the sender's account is gone. */
  sender: z.object({ name: z.string() }).nullable(),
  contract: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  /** ISO instants. */
  date_sent: z.string(),
  valid_date: z.string(),
  expires_date: z.string(),
  expired: z.boolean(),
  /** Within `limits.expiringSoonHours` of its expiry and not yet expired ('Expiring'). */
  expires_soon: z.boolean(),
  bytes: z.number(),
  num_files: z.number(),
  message: z.string(),
  /** The package asks (some of) its recipients to prove a PIN before downloading. */
  pin_verified: z.boolean(),
  invalid_filenames: z.boolean(),
  /** The contract lets recipients extend the expiry (the button shows when also expires_soon). */
  can_extend_expiry: z.boolean(),
};

/** A package as one of its recipients sees it (Inbox list and detail). */
export const receivedPackage = z.object({
  ...packageCore,
  seen: z.boolean(),
  /** The sender removed this recipient: show the warning, hide the files. */
  removed: z.boolean(),
  /** This recipient has downloaded all of it at least once. */
  downloaded: z.boolean(),
  download_status: downloadStatus,
  /** This recipient must still prove a PIN before downloading. */
  locked: z.boolean(),
  /** The last digits of the mobile the PIN goes to, when a PIN is asked. */
  mobile_hint: z.string().nullable(),
});
export type ReceivedPackage = z.infer<typeof receivedPackage>;

/** One download of a recipient, as the sender's history shows it. */
export const recipientDownload = z.object({
  /** When the first byte left (ISO), or when the grant was made if none did yet. */
  min_ts: z.string(),
  ip: z.string(),
  bytes: z.number(),
  /** Seconds from the first to the last byte. */
  duration: z.number(),
  is_partial: z.boolean(),
  /** When the last byte left (ISO), or the grant's time. */
  timestamp: z.string(),
});
export type RecipientDownload = z.infer<typeof recipientDownload>;

/** A recipient of a sent package; `id` is the user's id, which the recipient calls take. */
export const sentRecipient = z.object({
  id: z.number(),
  package_slug: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  mobile_hint: z.string().nullable(),
  /** Active in the contract (not an ad-hoc or still-invited address). */
  verified: z.boolean(),
  /** Must prove a PIN before downloading (pin_required), and whether they have (pin_verified). */
  pin_required: z.boolean(),
  pin_verified: z.boolean(),
  removed: z.boolean(),
  seen: z.boolean(),
  downloaded: downloadStatus,
  downloads: z.array(recipientDownload),
});
export type SentRecipient = z.infer<typeof sentRecipient>;

/** A package as its sender sees it (Sent list and detail). */
export const sentPackage = z.object({
  ...packageCore,
  /** Some recipient has downloaded all of it. */
  downloaded: z.boolean(),
  /** Always false: a sender never loses access to their package. */
  removed: z.boolean(),
  seen: z.boolean(),
  recipients: z.array(sentRecipient),
});
export type SentPackage = z.infer<typeof sentPackage>;

/** A page of the Inbox, newest first, with the unseen counts for the sidebar badge. */
export const receivedPage = z.object({
  packages: z.array(receivedPackage),
  page: z.number(),
  page_size: z.number(),
  /** Counted up to `listCountCap`; that number means "at least". `has_more` is always exact. */
  total: z.number(),
  has_more: z.boolean(),
  /**
   * Unseen packages (not expired, access not removed) in the contract asked for, or in all of
   * the caller's contracts; each contract's count stops at `unseenCountCap` (the badge shows 9+).
   */
  unseen: z.number(),
  /** The same count per contract slug, for every contract the user has received in. */
  unseen_by_contract: z.record(z.string(), z.number()),
});
export type ReceivedPage = z.infer<typeof receivedPage>;

export const sentPage = z.object({
  packages: z.array(sentPackage),
  page: z.number(),
  page_size: z.number(),
  /** Counted up to `listCountCap`, as in the Inbox. */
  total: z.number(),
  has_more: z.boolean(),
});
export type SentPage = z.infer<typeof sentPage>;

export const packageFile = z.object({
  user_path: z.string(),
  size: z.number(),
  /** The file's name in storage (a cleaned name with a random suffix). */
  object: z.string(),
});
export type PackageFile = z.infer<typeof packageFile>;

/**
 * A page of a package's files, by path. While the package is locked for this recipient the
 * list is empty (`locked` true) until the PIN is proved; `total_files` still counts them.
 */
export const packageFilesPage = z.object({
  files: z.array(packageFile),
  total_files: z.number(),
  page: z.number(),
  page_size: z.number(),
  has_more: z.boolean(),
  locked: z.boolean(),
});
export type PackageFilesPage = z.infer<typeof packageFilesPage>;

/**
 * What the external package page shows, with one page of files: the answer of the
 * `files_external` call. Dates are epoch seconds here. `download_url` is the path (below /api)
 * of the whole-package grant call, to which the page adds its key.
 */
export const externalPackage = z.object({
  name: z.string(),
  slug: z.string(),
  sender: z.object({ name: z.string() }),
  contract: z.object({ name: z.string() }),
  message: z.string(),
  date_sent: z.number(),
  valid_date: z.number(),
  expires_date: z.number(),
  expired: z.boolean(),
  expires_soon: z.boolean(),
  locked: z.boolean(),
  pin_verified: z.boolean(),
  download_url: z.string(),
  invalid_filenames: z.boolean(),
  bytes: z.number(),
  num_files: z.number(),
  mobile_hint: z.string().nullable(),
  files: z.array(packageFile),
  total_files: z.number(),
  page: z.number(),
  page_size: z.number(),
  has_more: z.boolean(),
});
export type ExternalPackage = z.infer<typeof externalPackage>;

/** A recipient to add to a sent package: a contract user by id, or an ad-hoc address. */
export const addRecipientInput = packageRecipientInput.omit({ id: true }).extend({
  user: z
    .number()
    .int()
    .min(-int32Max - 1)
    .max(int32Max)
    .optional(),
});

export const addRecipientsRequest = z.object({
  contract: z.union([text().trim().min(1), z.number().int()]).optional(),
  recipients: z
    .array(addRecipientInput, sendMessages.selectRecipients)
    .min(1, sendMessages.selectRecipients)
    .max(1000)
    .prefault([]),
  /** A note for the new recipients' mail; the package's own message is unchanged. */
  message: text().max(10_000).default(''),
  pin_verify: z.boolean().default(false),
});
export type AddRecipientsRequest = z.infer<typeof addRecipientsRequest>;

export const updateRecipientRequest = z.object({
  mobile: text(inboxMessages.mobileRequired)
    .trim()
    .min(1, inboxMessages.mobileRequired)
    .prefault(''),
});

const slugOnly = z.object({ slug: slugParam });
const recipientParams = z.object({ slug: slugParam, userId: idParam });

/**
 * Receiving and following up: the Inbox and Sent lists and details, file lists, the external
 * page, seen and expiry, the sender's recipient changes, and downloads by an external link's key.
 */
export const inboxRoutes = {
  receivedList: defineRoute({
    method: 'GET',
    path: '/packages/received/',
    summary: `One page (${limits.receivedPageSize}) of the packages the caller received, newest first`,
    auth: 'user',
    query: receivedListQuery,
    status: 200,
    response: receivedPage,
  }),
  sentList: defineRoute({
    method: 'GET',
    path: '/packages/sent/',
    summary: `One page (${limits.sentPageSize}) of the packages the caller sent, newest first`,
    auth: 'user',
    query: sentListQuery,
    status: 200,
    response: sentPage,
  }),
  received: defineRoute({
    method: 'GET',
    path: '/packages/received/:slug/',
    summary: 'A package the caller received',
    auth: 'user',
    params: slugOnly,
    status: 200,
    response: receivedPackage,
  }),
  sent: defineRoute({
    method: 'GET',
    path: '/packages/sent/:slug/',
    summary: 'A package the caller sent, with its recipients and their downloads',
    auth: 'user',
    params: slugOnly,
    status: 200,
    response: sentPackage,
  }),
  receivedFiles: defineRoute({
    method: 'GET',
    path: '/packages/received/:slug/files/',
    summary: 'One page of the files of a package the caller received',
    auth: 'user',
    params: slugOnly,
    query: packageFilesQuery,
    status: 200,
    response: packageFilesPage,
  }),
  externalFiles: defineRoute({
    method: 'GET',
    path: '/packages/received/:slug/files_external/',
    summary: "The external page: the package a link's key opens, with one page of its files",
    auth: 'public',
    params: slugOnly,
    query: externalFilesQuery,
    status: 200,
    response: externalPackage,
  }),
  sentFiles: defineRoute({
    method: 'GET',
    path: '/packages/sent/:slug/files/',
    summary: 'One page of the files of a package the caller sent',
    auth: 'user',
    params: slugOnly,
    query: packageFilesQuery,
    status: 200,
    response: packageFilesPage,
  }),
  markSeen: defineRoute({
    method: 'POST',
    path: '/packages/:slug/mark_seen/',
    summary: 'Mark a received package seen',
    auth: 'user',
    params: slugOnly,
    status: 200,
    response: receivedPackage,
    idempotent: true,
  }),
  extendExpiry: defineRoute({
    method: 'POST',
    path: '/packages/:slug/extend-expiry/',
    summary: 'Keep an expiring package longer, within its storage limit (if the contract allows)',
    auth: 'user',
    params: slugOnly,
    status: 200,
    response: receivedPackage,
  }),
  addRecipients: defineRoute({
    method: 'POST',
    path: '/packages/sent/:slug/add_recipients/',
    summary: 'Add recipients to a sent package; they are mailed their link',
    auth: 'user',
    params: slugOnly,
    body: addRecipientsRequest,
    status: 200,
    response: sentPackage,
  }),
  removeRecipient: defineRoute({
    method: 'POST',
    path: '/packages/sent/:slug/remove_recipient/:userId/',
    summary: "End a recipient's access to a sent package at once",
    auth: 'user',
    params: recipientParams,
    status: 200,
    response: sentPackage,
    idempotent: true,
  }),
  updateRecipient: defineRoute({
    method: 'POST',
    path: '/packages/sent/:slug/update_recipient/:userId/',
    summary: "Change the mobile a recipient's PINs for this package go to",
    auth: 'user',
    params: recipientParams,
    body: updateRecipientRequest,
    status: 200,
    response: sentPackage,
    idempotent: true,
  }),
  externalPackageGrant: defineRoute({
    method: 'GET',
    path: '/packages/external/:slug/download/',
    summary: "A download URL for the whole package as one tar, by a link's key",
    auth: 'public',
    params: slugOnly,
    query: externalGrantQuery,
    status: 200,
    response: packageDownloadGrant,
  }),
  externalFileGrant: defineRoute({
    method: 'GET',
    path: '/packages/external/:slug/download/*',
    summary: "A download URL for one file of the package, by a link's key",
    auth: 'public',
    // The rest of the path is the file's user path, with or without a trailing '/'.
    params: slugOnly.extend({ '*': text() }),
    query: z.object({ key: linkKey }),
    status: 200,
    response: fileDownloadGrant,
  }),
};
