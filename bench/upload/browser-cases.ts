import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setSlabFiles } from './api-session';
import type { Page } from 'playwright-core';
import { callPage, heapWhile, openBenchPage, type BenchBrowser } from './browser';
import { against, rounds, transferFigure, type Figure, type Setup, type Unit } from './cases';
import { profileWhile } from './profile';

const BIG = 'big/A001.mov';
const FRAMES = 'frames';
const SLICES = 4;
const PARALLEL = 10;
const SMALL_FILES_PER_WRITER = 1000;

/**
 * One transfer of the page: prepared (package, grants) before the clock starts, then measured
 * with the page's JS heap sampled throughout, and profiled as `name` when asked to.
 */
async function pageTransfer(
  setup: Setup,
  browser: BenchBrowser,
  name: string,
  unit: Unit,
  amount: number,
  prepare: () => Promise<unknown>,
  send: () => Promise<{ seconds: number } & Record<string, unknown>>,
): Promise<Figure> {
  await prepare();
  const parties = { ...setup.parties, client: browser.pid };
  const profiled = setup.profileDir
    ? () => profileWhile(browser, setup.profileDir, name, send)
    : send;
  const { result, ...heap } = await heapWhile(browser, () =>
    transferFigure(parties, unit, amount, 'browser', profiled),
  );
  return { ...result, ...heap };
}

/**
 * Writes files shaped as the disk's into the origin-private file system (not measured): one
 * large file and the small ones in their folders.
 */
async function copyToPrivateFileSystem(setup: Setup, page: Page) {
  const { sizes, log } = setup;
  log('browser: writing the files into the origin-private file system');
  await callPage(page, 'writeFiles', { kind: 'file', path: BIG, size: sizes.bigBytes });
  log(`browser: wrote the large file; writing ${sizes.count} small files`);
  // A thousand files per writer: one worker writing ten thousand stopped answering after its
  // last file in Chromium 156, while a fresh worker per thousand finishes.
  for (let first = 0; first < sizes.count; first += SMALL_FILES_PER_WRITER) {
    await callPage(page, 'writeFiles', {
      kind: 'folder',
      path: FRAMES,
      first,
      count: Math.min(SMALL_FILES_PER_WRITER, sizes.count - first),
      size: sizes.size,
      perFolder: sizes.perFolder,
    });
  }
}

/**
 * The browser's cases: (a) one large file, the engine against a bare page PUTting 4 slices at
 * once; (b) many small files, the engine with FormPost batches and with slab objects against
 * one PUT per file, 10 at once. The page picks the files on disk through its file inputs (or,
 * with `--browser-files opfs`, copies of them in the origin-private file system as handles).
 */
export async function browserCases(setup: Setup) {
  const { sizes, log } = setup;
  const userDataDir = path.join(setup.workDir, 'chromium');
  const browser = await openBenchPage(userDataDir, setup.origin);
  const { page } = browser;
  try {
    await callPage(page, 'login', 'sender@example.com', setup.password);
    if (setup.browserFiles === 'disk') {
      log('browser: picking the files on disk');
      await page.setInputFiles('#pick-file', setup.files.big.file);
      await page.setInputFiles('#pick-folder', setup.files.framesDir);
      await callPage(page, 'pickInput', BIG, 'pick-file');
      await callPage(page, 'pickInput', FRAMES, 'pick-folder');
    } else {
      await copyToPrivateFileSystem(setup, page);
      log('browser: picking the files of the origin-private file system');
      await callPage(page, 'pick', BIG);
      await callPage(page, 'pick', FRAMES);
    }
    const mb = sizes.bigBytes / 1e6;
    const transfer = (
      name: string,
      unit: Unit,
      amount: number,
      prepare: () => Promise<unknown>,
      send: () => Promise<{ seconds: number } & Record<string, unknown>>,
    ) => pageTransfer(setup, browser, name, unit, amount, prepare, send);

    await setSlabFiles(setup.admin, false);
    const large = await rounds(
      setup.runs,
      'mb_per_s',
      [
        [
          'bare_page_4_slices',
          () =>
            transfer(
              'large_bare_page_4_slices',
              'mb_per_s',
              mb,
              () => callPage(page, 'prepareBare', BIG, SLICES),
              () => callPage(page, 'bareSlices', BIG),
            ),
        ],
        [
          'engine',
          () =>
            transfer(
              'large_engine',
              'mb_per_s',
              mb,
              () => callPage(page, 'prepareEngine', BIG),
              () => callPage(page, 'runEngine', BIG),
            ),
        ],
      ],
      (m) => log(`browser, large file: ${m}`),
    );

    const engineWithSlabs = (on: boolean) => async () => {
      await setSlabFiles(setup.admin, on);
      try {
        return await transfer(
          on ? 'small_engine_slabs' : 'small_engine_form_posts',
          'files_per_s',
          sizes.count,
          () => callPage(page, 'prepareEngine', FRAMES),
          () => callPage(page, 'runEngine', FRAMES),
        );
      } finally {
        await setSlabFiles(setup.admin, false);
      }
    };
    const small = await rounds(
      setup.runs,
      'files_per_s',
      [
        [
          'bare_page_put_per_file_10',
          () =>
            transfer(
              'small_bare_page_put_per_file_10',
              'files_per_s',
              sizes.count,
              () => callPage(page, 'prepareBare', FRAMES),
              () => callPage(page, 'barePerFile', FRAMES, PARALLEL),
            ),
        ],
        ['engine_form_posts', engineWithSlabs(false)],
        ['engine_slabs', engineWithSlabs(true)],
      ],
      (m) => log(`browser, small files: ${m}`),
    );

    return {
      one_large_file: {
        mib: sizes.bigBytes / 1024 ** 2,
        bare_page_4_slices: large.bare_page_4_slices!,
        engine: against(large.engine!, large.bare_page_4_slices!, 'mb_per_s', 0.9),
      },
      small_files: {
        files: sizes.count,
        kib_each: sizes.size / 1024,
        bare_page_put_per_file_10: small.bare_page_put_per_file_10!,
        engine_form_posts: against(
          small.engine_form_posts!,
          small.bare_page_put_per_file_10!,
          'files_per_s',
          20,
        ),
        engine_slabs: against(
          small.engine_slabs!,
          small.bare_page_put_per_file_10!,
          'files_per_s',
          20,
        ),
      },
    };
  } finally {
    await browser.context.close();
    await rm(userDataDir, { recursive: true, force: true });
  }
}
