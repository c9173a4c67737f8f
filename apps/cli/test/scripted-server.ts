import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { xxhash128 } from 'hash-wasm';
import type { PackageDownloadGrant } from '@filerunner/protocol';
import { layoutTar, piecesForRange, type TarLayout } from '@filerunner/transfer';

// A FileRunner as a hostile (or broken) server would answer `filerunner receive`: a grant with
// whatever file list the test scripts, and the package's tar at its download URL, in ranges.
// The real server never sends such lists, so the command is tested against this one.

/** One member as the server lists it: its name, and its bytes (none for a list never served). */
export interface ScriptedMember {
  readonly path: string;
  readonly text?: string;
}

export interface ScriptedPackage {
  readonly name: string;
  readonly members: readonly ScriptedMember[];
  /** The token in the download URL, which the command must never print. */
  readonly token: string;
}

/** How downloads are answered: served, cut off before an answer, or stalled half-way. */
export type DownloadBehaviour = 'serve' | 'drop' | 'stall';

const MTIME = 1_767_225_600;

export async function scriptedServer(pkg: ScriptedPackage) {
  const encoder = new TextEncoder();
  const bodies = pkg.members.map((m) => encoder.encode(m.text ?? ''));
  const files = await Promise.all(
    pkg.members.map(async (m, i) => ({
      path: m.path,
      size: bodies[i]!.length,
      xxh128: await xxhash128(bodies[i]!),
    })),
  );
  // A list a tar cannot be made of (a '..' segment) is sent with a made-up size: it is refused
  // before its bytes are asked for.
  let tar: Uint8Array;
  try {
    const layout = layoutTar(files.map((f) => ({ path: f.path, size: f.size, mtime: MTIME })));
    tar = tarBytes(layout, bodies);
  } catch {
    tar = new Uint8Array(1024);
  }
  const filename = `${pkg.name}.tar`;
  const downloadPath = `/api/downloads/${pkg.token}/${encodeURIComponent(filename)}`;
  const grant: PackageDownloadGrant = {
    filename,
    download_url: downloadPath,
    size: tar.length,
    num_files: files.length,
    mtime: MTIME,
    files,
  };
  const state = { downloads: 'serve' as DownloadBehaviour };
  const stalled = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://scripted');
    if (request.method === 'GET' && /^\/api\/packages\/[^/]+\/download\/$/.test(url.pathname)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(grant));
    } else if (url.pathname === downloadPath) {
      serveTar(tar, state.downloads, request, response, stalled);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: 'Not found.' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    grant,
    /** How the tar's URL answers from now on. */
    answerDownloads(behaviour: DownloadBehaviour) {
      state.downloads = behaviour;
      if (behaviour !== 'stall') for (const response of stalled) response.destroy();
    },
    close() {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function tarBytes(layout: TarLayout, bodies: readonly Uint8Array[]): Uint8Array {
  const tar = new Uint8Array(layout.size);
  let at = 0;
  for (const piece of piecesForRange(layout, { offset: 0, length: layout.size })) {
    const bytes =
      piece.kind === 'bytes'
        ? piece.data
        : bodies[piece.entry]!.subarray(piece.offset, piece.offset + piece.length);
    tar.set(bytes, at);
    at += bytes.length;
  }
  return tar;
}

function serveTar(
  tar: Uint8Array,
  behaviour: DownloadBehaviour,
  request: IncomingMessage,
  response: ServerResponse,
  stalled: Set<ServerResponse>,
) {
  if (behaviour === 'drop') {
    request.socket.destroy();
    return;
  }
  const headers = { etag: '"scripted"', 'accept-ranges': 'bytes' };
  if (request.method === 'HEAD') {
    response.writeHead(200, { ...headers, 'content-length': tar.length });
    response.end();
    return;
  }
  const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  const end = range ? Math.min(Number(range[2]), tar.length - 1) : tar.length - 1;
  response.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': end - start + 1,
    ...(range ? { 'content-range': `bytes ${start}-${end}/${tar.length}` } : {}),
  });
  if (behaviour === 'stall') {
    // Half the answer, then silence: the command waits mid-body until it is killed.
    response.write(tar.subarray(start, start + Math.floor((end - start + 1) / 2)));
    stalled.add(response);
    return;
  }
  response.end(tar.subarray(start, end + 1));
}
