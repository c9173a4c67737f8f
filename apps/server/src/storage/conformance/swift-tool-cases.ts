import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import {
  getBytes,
  putObject,
  randomBody,
  uniqueKey,
  type ConformanceContext,
} from './conformance-harness';

/** Debian's python3-swiftclient; a pyenv `swift` earlier on PATH would not be it. */
export const SWIFT_TOOL = '/usr/bin/swift';
export const hasSwiftTool = existsSync(SWIFT_TOOL);

const run = promisify(execFile);

/** `swift tempurl ...` prints the path with the signed query; storage gets our origin in front. */
async function swiftTempUrl(ctx: ConformanceContext, args: string[]): Promise<string> {
  const { stdout } = await run(SWIFT_TOOL, ['tempurl', ...args, ctx.target.tempUrlKey], {
    env: { ...process.env, PYTHONWARNINGS: 'ignore' },
  });
  return new URL(ctx.driver.accountUrl).origin + stdout.trim();
}

function objectPath(ctx: ConformanceContext, key: string): string {
  return `${new URL(ctx.driver.accountUrl).pathname}/${ctx.container}/${key}`;
}

/** URLs signed by OpenStack's own client must work unchanged. */
export function swiftToolCases(context: () => ConformanceContext): void {
  it('accepts GET URLs from `swift tempurl` (sha256, sha1, sha512, ISO 8601 expiry)', async () => {
    const ctx = context();
    const key = uniqueKey('swift-tool/get');
    const body = randomBody(4096);
    expect((await putObject(ctx, key, body)).status).toBe(201);
    const variants = [[], ['--digest', 'sha1'], ['--digest', 'sha512'], ['--iso8601']];
    for (const options of variants) {
      const url = await swiftTempUrl(ctx, [...options, 'GET', '600', objectPath(ctx, key)]);
      const { response, bytes } = await getBytes(url, { range: 'bytes=100-199' });
      expect(response.status, options.join(' ')).toBe(206);
      expect(bytes.equals(body.subarray(100, 200))).toBe(true);
    }
  });

  it('accepts PUT and prefix-based URLs from `swift tempurl`', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('swift-tool/prefix')}/`;
    const body = randomBody(1000);
    const putUrl = await swiftTempUrl(ctx, ['PUT', '600', objectPath(ctx, `${prefix}file`)]);
    expect((await fetch(putUrl, { method: 'PUT', body })).status).toBe(201);
    const prefixUrl = await swiftTempUrl(ctx, [
      '--prefix-based',
      'GET',
      '600',
      objectPath(ctx, prefix),
    ]);
    const query = prefixUrl.slice(prefixUrl.indexOf('?'));
    const fileUrl = prefixUrl.slice(0, prefixUrl.indexOf('?')) + 'file' + query;
    const { response, bytes } = await getBytes(fileUrl);
    expect(response.status).toBe(200);
    expect(bytes.equals(body)).toBe(true);
  });

  it('refuses a `swift tempurl` URL that has expired', async () => {
    const ctx = context();
    const key = uniqueKey('swift-tool/expired');
    expect((await putObject(ctx, key, randomBody(10))).status).toBe(201);
    const past = String(Math.floor(Date.now() / 1000) - 60);
    const url = await swiftTempUrl(ctx, ['--absolute', 'GET', past, objectPath(ctx, key)]);
    expect((await getBytes(url)).response.status).toBe(401);
  });
}
