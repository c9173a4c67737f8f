import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import type { ConformanceContext, ConformanceTarget } from './conformance-harness';
import { corsCases } from './cors-cases';
import { formPostCases } from './formpost-cases';
import { ifMatchCases, readBytesCases } from './if-match-cases';
import { manifestCases } from './manifest-cases';
import { hasSwiftTool, swiftToolCases } from './swift-tool-cases';
import { tempUrlCases } from './tempurl-cases';

export type { ConformanceTarget } from './conformance-harness';

/**
 * The one contract every StorageDriver and its storage must meet, as the browser and the
 * server use them. `start` brings the storage up (or connects to it); each run works in a
 * fresh container and deletes what it stored. `enabled` false skips the whole suite, for
 * storage that is only present in some environments (a Swift cluster).
 */
export function describeStorageConformance(
  name: string,
  start: () => Promise<ConformanceTarget>,
  enabled = true,
): void {
  describe.runIf(enabled)(`storage conformance: ${name}`, () => {
    let ctx: ConformanceContext | undefined;
    const context = (): ConformanceContext => {
      if (!ctx) throw new Error('storage under test did not start');
      return ctx;
    };

    beforeAll(async () => {
      const target = await start();
      const container = `conformance-${randomBytes(4).toString('hex')}`;
      await target.driver.ensureContainer(container, {
        allowedOrigins: [target.allowedOrigin],
        maxAgeSeconds: 600,
      });
      ctx = {
        target,
        driver: target.driver,
        container,
        foreignOrigin: 'https://elsewhere.example',
      };
    });

    afterAll(async () => {
      if (!ctx) return;
      await ctx.driver.deletePrefix(ctx.container, '');
      await ctx.target.close();
    });

    describe('TempURL', () => tempUrlCases(context));
    describe('FormPost', () => formPostCases(context));
    describe('SLO manifests', () => manifestCases(context));
    describe('conditional reads (If-Match)', () => ifMatchCases(context));
    describe('small reads taken whole', () => readBytesCases(context));
    describe('CORS', () => corsCases(context));
    describe.runIf(hasSwiftTool)('signatures from `swift tempurl`', () => swiftToolCases(context));
  });
}
