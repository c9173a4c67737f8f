import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam, text } from './api/fields';

/**
 * The response header that counts the package's files left out of its hash list because no
 * xxh128 was recorded for them at upload (the list itself says so in a comment too).
 */
export const unhashedFilesHeader = 'x-filerunner-unhashed-files';

/**
 * A package's ASC MHL: the hash list (ASC MHL v2, `urn:ASC:MHL:v2.0`) of its files as their
 * sender's engine hashed them at upload, the same bytes the package's tar carries in `ascmhl/`.
 * For its recipients (under the download rules) and its sender.
 */
export const mhlRoutes = {
  packageMhl: defineRoute({
    method: 'GET',
    path: '/packages/:slug/mhl/',
    summary: "The package's ASC MHL hash list (XML), for its recipients and its sender",
    auth: 'user',
    params: z.object({ slug: slugParam }),
    status: 200,
    response: 'binary',
  }),
  externalPackageMhl: defineRoute({
    method: 'GET',
    path: '/packages/external/:slug/mhl/',
    summary: "The package's ASC MHL hash list (XML), by a link's key",
    auth: 'public',
    params: z.object({ slug: slugParam }),
    query: z.object({ key: text().min(1).max(200) }),
    status: 200,
    response: 'binary',
  }),
};
