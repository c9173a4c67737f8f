import { describe, expect, it } from 'vitest';
import { packageLimits } from '@filerunner/protocol';
import { useTestServer } from '../../../test/harness';
import { listeningSender, testPlan, type TestFile } from '../../../test/uploader';

// Frame sequences: tens of thousands of files in one package. The create call and the upload
// plan's grant call name every file, so their bodies grow with the count; both must pass for as
// many files as a package may hold, well past the 1 MiB a JSON body is usually allowed.

let env: Awaited<ReturnType<typeof listeningSender>>;
useTestServer(async (t) => {
  env = await listeningSender(t.server, 'Frames');
});

/** `count` one-byte frames with the deep, long names a VFX delivery has. */
function frames(count: number): TestFile[] {
  return Array.from({ length: count }, (_, i) => {
    const shot = String(Math.floor(i / 1000)).padStart(4, '0');
    const frame = String(10_001 + i).padStart(6, '0');
    return {
      path: `reel_03/vfx/shot_${shot}/comp/v012/exr/shot_${shot}_comp_v012.${frame}.exr`,
      bytes: Buffer.from([i % 256]),
    };
  });
}

describe('a package of tens of thousands of files', () => {
  it('is created and granted in one call each', { timeout: 120_000 }, async () => {
    const { fx, sender } = env;
    const files = frames(30_000);
    const pkg = await sender.createOf(files, {
      contract: fx.contract.slug,
      name: 'Reel 3 frames',
      recipients: [{ id: fx.receiver.user.id }],
    });
    expect(pkg.num_files).toBe(30_000);

    const { bulk } = testPlan(files);
    // The point of the test: both bodies are far larger than the usual 1 MiB.
    expect(JSON.stringify(bulk).length).toBeGreaterThan(2 * 1024 * 1024);
    const granted = await sender.call('POST', `/packages/${pkg.slug}/bulk/`, bulk);
    expect(granted.status).toBe(200);
    expect((granted.body.bulk_data as { file_data: unknown[] }).file_data).toHaveLength(
      bulk.batches.length,
    );
  });

  it('is refused beyond the most files a package may hold, with the reason', async () => {
    const { fx, sender } = env;
    const files = frames(packageLimits.maxFiles + 1);
    const { status, body } = await sender.call('POST', '/packages/create/', {
      contract: fx.contract.slug,
      name: 'Too many',
      recipients: [{ id: fx.receiver.user.id }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * 3_600_000).toISOString(),
      expected_files: files.length,
      expected_size: files.length,
      intended_files: files.map((f) => ({ filename: f.path, size: 1 })),
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('intended_files');
  });
});
