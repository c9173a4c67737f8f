import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam, text } from './api/fields';

/** One member of a package's tar, in tar order: with `mtime`, what lays the tar out. */
export const tarMember = z.object({
  path: z.string(),
  size: z.number(),
  /** The xxh128 the sender's engine recorded at upload (32 lowercase hex digits), or null. */
  xxh128: z.string().nullable(),
});
export type TarMember = z.infer<typeof tarMember>;

/** A grant to download the whole package as one tar. */
export const packageDownloadGrant = z.object({
  filename: z.string(),
  /** Works without a session for 24 hours, whole or in ranged chunks. */
  download_url: z.string(),
  size: z.number(),
  /** The package's files; the tar may carry two more members, its ASC MHL (see `files`). */
  num_files: z.number(),
  /**
   * The tar's members in order, and the one mtime (Unix seconds) every header carries: the
   * download engine lays out the same tar (`layoutTar`) and so knows which file every byte of
   * any range belongs to, and which hash to check it against. After the package's files come
   * the members the server writes, `ascmhl/0001_<name>_<date>Z.mhl` and
   * `ascmhl/ascmhl_chain.xml` (with their xxh128), unless the package has an `ascmhl` folder of
   * its own at the top.
   */
  mtime: z.number(),
  files: z.array(tarMember),
});
export type PackageDownloadGrant = z.infer<typeof packageDownloadGrant>;

/** A grant to download one file of the package. */
export const fileDownloadGrant = z.object({
  filename: z.string(),
  download_url: z.string(),
  size: z.number(),
});
export type FileDownloadGrant = z.infer<typeof fileDownloadGrant>;

const packageParams = z.object({ slug: slugParam });

/**
 * Downloads: a signed-in recipient asks for a grant (the whole package as a tar, or one file),
 * then fetches its URL with any downloader, whole or in ranged chunks, without a session. A
 * sender asks for their own copy of what they sent in the same shape; its URL is fetched with
 * their session (a sender is no recipient, so no grant names them; see decision 019).
 */
export const downloadRoutes = {
  packageGrant: defineRoute({
    method: 'GET',
    path: '/packages/:slug/download/',
    summary: 'A download URL for the whole package as one tar',
    auth: 'user',
    params: packageParams,
    status: 200,
    response: packageDownloadGrant,
  }),
  fileGrant: defineRoute({
    method: 'GET',
    path: '/packages/:slug/download/*',
    summary: 'A download URL for one file of the package, named by its path in the package',
    auth: 'user',
    // The rest of the path is the file's user path; the external page's form ends in '/'.
    params: packageParams.extend({ '*': text() }),
    status: 200,
    response: fileDownloadGrant,
  }),
  sentPackageGrant: defineRoute({
    method: 'GET',
    path: '/packages/sent/:slug/download/',
    summary: "The sender's own copy of a package they sent, as one tar (fetched with the session)",
    auth: 'user',
    params: packageParams,
    status: 200,
    response: packageDownloadGrant,
  }),
  sentFileGrant: defineRoute({
    method: 'GET',
    path: '/packages/sent/:slug/download/*',
    summary: "The sender's own copy of one file of a package they sent (fetched with the session)",
    auth: 'user',
    params: packageParams.extend({ '*': text() }),
    status: 200,
    response: fileDownloadGrant,
  }),
  sentPackageBytes: defineRoute({
    method: ['GET', 'HEAD'],
    path: '/packages/sent/:slug/tar/:filename',
    summary:
      "A sent package's tar for its sender, whole or one range (the session is the credential)",
    auth: 'user',
    params: packageParams.extend({ filename: text() }),
    status: 200,
    response: 'binary',
  }),
  sentFileBytes: defineRoute({
    method: ['GET', 'HEAD'],
    path: '/packages/sent/:slug/file/*',
    summary:
      'One file of a sent package for its sender, whole or one range (the session is the credential)',
    auth: 'user',
    params: packageParams.extend({ '*': text() }),
    status: 200,
    response: 'binary',
  }),
  download: defineRoute({
    method: ['GET', 'HEAD'],
    path: '/downloads/:token/:filename',
    summary: "A grant's bytes: the tar or the file, whole or one range (the URL is the credential)",
    auth: 'public',
    params: z.object({ token: text().min(1).max(200), filename: text() }),
    status: 200,
    response: 'binary',
  }),
};
