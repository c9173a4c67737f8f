import { fileURLToPath } from 'node:url';

/**
 * The Node.js flags the server runs with (`npm start`, the cluster script, the benches and the
 * browser suites' servers). Only the command line can set them: NODE_OPTIONS refuses them.
 *
 * `--initial-old-space-size`: streaming a download allocates a read buffer per chunk, about a
 * gigabyte a second, all of it short-lived. With V8's default, the old generation's limit sits
 * just above the server's own live heap (about 40 MB); once a few downloads have run at once, the
 * collector starts a full marking pass every few dozen megabytes streamed and stays in that state
 * (seen with --trace-incremental-marking: "allocation limit", each pass about 120 ms of marking).
 * The 1 GiB tar of eight large files then cost 0.3 CPU-seconds per 100 MiB at about 0.45 GB/s,
 * against 0.1 on a server that had served one download at a time. With a 256 MB starting limit
 * those buffers stay with the cheap young-generation collections: the download bench measured
 * 1.87 GB/s at 0.05 CPU-seconds per 100 MiB after the same parallel downloads. It only sets where
 * the first full collection starts; it reserves nothing (the 10,000-file tar peaked at 418 MiB of
 * server memory with it, 408 without).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=256'];

const SERVER_ENTRY = fileURLToPath(new URL('./main.ts', import.meta.url));

/**
 * The arguments after `node` that start the server from its sources as `npm start` does, with
 * `nodeOptions` (a profiler, say) before the script: for the processes tests and benches start.
 */
export function serverNodeArgs(nodeOptions: readonly string[] = []): string[] {
  return [...SERVER_NODE_FLAGS, ...nodeOptions, '--import', 'tsx', SERVER_ENTRY];
}
