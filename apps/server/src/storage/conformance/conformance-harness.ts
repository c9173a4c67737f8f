import { createHash, randomBytes } from 'node:crypto';
import type { StorageDriver, TempUrlMethod } from '../storage-driver';

/** One storage system under test, as describeStorageConformance receives it. */
export interface ConformanceTarget {
  readonly driver: StorageDriver;
  /** The origin the suite's containers allow by CORS. */
  readonly allowedOrigin: string;
  /** The account's TempURL key (for signing with other tools, e.g. `swift tempurl`). */
  readonly tempUrlKey: string;
  close(): Promise<void>;
}

/** What every case file gets: the target once it is up, and a container of its own. */
export interface ConformanceContext {
  readonly target: ConformanceTarget;
  readonly driver: StorageDriver;
  readonly container: string;
  /** An origin no container allows. */
  readonly foreignOrigin: string;
}

export function md5(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

export function randomBody(size: number): Buffer {
  return randomBytes(size);
}

export function inSeconds(seconds: number): number {
  return Math.floor(Date.now() / 1000) + seconds;
}

/** A unique key so cases never see each other's objects. */
export function uniqueKey(label: string): string {
  return `${label}-${randomBytes(6).toString('hex')}`;
}

export function signedUrl(
  context: ConformanceContext,
  method: TempUrlMethod,
  key: string,
  ttlSeconds = 600,
): string {
  return context.driver.signTempUrl({
    method,
    container: context.container,
    key,
    expires: inSeconds(ttlSeconds),
  }).url;
}

export async function putObject(
  context: ConformanceContext,
  key: string,
  body: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(signedUrl(context, 'PUT', key), { method: 'PUT', body, headers });
  await response.arrayBuffer();
  return response;
}

export async function getBytes(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Reads a Node stream to one buffer (test-sized objects only). */
export async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
