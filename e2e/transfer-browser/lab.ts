import { api as routes, createRouteClient } from '@filerunner/protocol';
import * as transfer from '@filerunner/transfer/browser';
import {
  outcomeOf,
  routeNamed,
  type Outcome,
  type RouteName,
} from '../../apps/server/test/route-calls';
import { fetchHttpClient } from '../../apps/web/src/app/fetch-http-client';
import { downloadLab } from './download-lab';
import { patternBytes } from './pattern';

/**
 * A test page, not part of the product: it loads the browser entry as the web app will (through
 * Vite, worker and all) and gives the e2e suite small helpers for the origin-private file
 * system, so `page.evaluate` calls stay short.
 */

const CHUNK = 1024 * 1024;

/** A folder in the origin-private file system, made if missing (`a/b/c`). */
async function opfsDirectory(path: string): Promise<FileSystemDirectoryHandle> {
  let directory = await navigator.storage.getDirectory();
  for (const name of path.split('/').filter(Boolean)) {
    directory = await directory.getDirectoryHandle(name, { create: true });
  }
  return directory;
}

/** Writes `size` pattern bytes to an origin-private file, a chunk at a time. */
async function writeOpfsFile(path: string, size: number, seed: number) {
  const parts = path.split('/');
  const directory = await opfsDirectory(parts.slice(0, -1).join('/'));
  const handle = await directory.getFileHandle(parts.at(-1)!, { create: true });
  const writable = await handle.createWritable();
  for (let offset = 0; offset < size; offset += CHUNK) {
    const bytes = patternBytes(offset, Math.min(CHUNK, size - offset), seed);
    await writable.write(bytes);
  }
  await writable.close();
  return handle;
}

async function sha256Hex(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Path, size and SHA-256 of each source, sorted by path, for comparing with Node's bytes. */
async function describe(sources: readonly transfer.PickedSource[]) {
  const described = await Promise.all(
    sources.map(async (s) => ({
      path: s.path,
      size: s.size,
      sha256: await sha256Hex(s.slice(0, s.size)),
    })),
  );
  return described.sort((a, b) => a.path.localeCompare(b.path));
}

const client = new transfer.XhrHttpClient();

/** The API as the web app calls it: the route client, here over the engine's XHR client. */
const api = createRouteClient({ http: client, baseUrl: '/api', clientVersion: 'e2e' });

/**
 * One call for the route client's suite (apps/server/test/route-client-contract.ts), over the
 * engine's XHR client or the web app's fetch client, answered as plain data.
 */
function contractCall(
  over: 'xhr' | 'fetch',
  name: RouteName,
  args: unknown,
  timeoutMs?: number,
): Promise<Outcome> {
  const routeClient = createRouteClient({
    http: over === 'xhr' ? client : fetchHttpClient(),
    baseUrl: '/api',
    clientVersion: 'e2e',
    random: () => 0,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return outcomeOf(routeClient.call(routeNamed(name), args as never));
}

const lab = {
  transfer,
  client,
  api,
  /** The route table, for `api.call` in the page. */
  routes,
  contractCall,
  hasher: new transfer.WorkerFileHasher(),
  opfsDirectory,
  writeOpfsFile,
  sha256Hex,
  describe,
  /** The download side's helpers (download-lab.ts). */
  downloads: downloadLab,
  /** What the last drop on #drop-zone gave (set by the drop handler below). */
  dropped: null as Promise<transfer.DroppedFiles> | null,
};
export type Lab = typeof lab;

declare global {
  interface Window {
    lab: Lab;
  }
}

const dropZone = document.getElementById('drop-zone')!;
dropZone.addEventListener('dragover', (event) => event.preventDefault());
dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  lab.dropped = transfer.sourcesFromDrop(event.dataTransfer!);
});

window.lab = lab;
