import { api, type RouteClient } from '@filerunner/protocol';
import { putUrl, segmentObjectName } from '@filerunner/transfer';

/**
 * The baselines' bare PUTs (curl, a page's fetch) store each file as segments of itself, the only
 * object names storage takes for a declared file; the digest is any fixed 16 hex digits.
 */
const BASELINE_DIGEST = '0000000000000000';

/** An object a bare PUT writes, named under the package prefix, with its size. */
export interface BaselineObject {
  name: string;
  size: number;
}

/** A file cut into `parts` slices, each PUT as its own segment object. */
export function sliceObjects(path: string, size: number, parts: number): BaselineObject[] {
  const part = Math.ceil(size / parts);
  return Array.from({ length: parts }, (_, i) => ({
    name: segmentObjectName(path, BASELINE_DIGEST, part, i),
    size: Math.min(size, (i + 1) * part) - i * part,
  }));
}

/** Each file PUT whole, as the only segment of itself. */
export function wholeFileObjects(files: readonly { path: string; size: number }[]) {
  return files.map((f) => ({
    name: segmentObjectName(f.path, BASELINE_DIGEST, f.size, 0),
    size: f.size,
  }));
}

/**
 * Asks the package's grants for exactly the objects a baseline will PUT, as the engine's plan
 * lists its slabs and segments: on Swift the prefix grant allows only HEAD, so each PUT needs the
 * object's own signed URL (`putUrl`, the engine's). Answers the URL of each listed object.
 * @throws Error for a name not listed: the server signed no PUT for it.
 */
export async function objectPutGrants(
  client: RouteClient,
  slug: string,
  objects: readonly BaselineObject[],
): Promise<(name: string) => string> {
  const bulk = await client.call(api.packages.bulk, {
    params: { slug },
    body: {
      batches: [],
      large_file_total_size: objects.reduce((sum, o) => sum + o.size, 0),
      objects: [...objects],
    },
  });
  return (name) => {
    const url = putUrl(bulk.tempurl_data, name, 0);
    if (!url) throw new Error(`no PUT grant for ${name}`);
    return url;
  };
}
