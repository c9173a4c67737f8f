import { api } from '@filerunner/protocol';
import path from 'node:path';
import { baselineGrants, setSlabFiles } from './api-session';
import { sliceObjects, wholeFileObjects, type BaselineObject } from './baseline-grants';
import { against, rounds, transferFigure, type Figure, type Setup } from './cases';
import { cliCommand, cliSend, curlPerFile, curlSlices, nodeEngine } from './node-side';
import type { DiskFile } from './disk-files';

const SLICES = 4;
const PARALLEL = 10;

/**
 * The Node side's cases, files on disk: (a) one large file through the engine's Node entry
 * against 4 curl processes PUTting 4 ranges; (b) many small files, the engine with FormPost
 * batches and with slabs, against `curl --parallel` (one PUT per file, 10 at once). The
 * `filerunner` CLI joins both when apps/cli exists; it is timed as a whole process.
 */
export async function nodeCases(setup: Setup) {
  const { sizes, log, parties, files } = setup;
  const mb = sizes.bigBytes / 1e6;
  const ledgerFile = path.join(setup.workDir, 'ledgers.json');
  const engine = (paths: string[], unit: 'mb_per_s' | 'files_per_s', amount: number) => {
    return async () => {
      const sender = await nodeEngine(setup.origin, setup.password, paths, ledgerFile);
      return transferFigure(parties, unit, amount, 'client', () => sender.go());
    };
  };
  const baseline = async (
    files: DiskFile[],
    objects: BaselineObject[],
    send: (urlOf: (name: string) => string) => Promise<{ seconds: number }>,
    unit: 'mb_per_s' | 'files_per_s',
    amount: number,
  ) => {
    const urlOf = await baselineGrants(
      setup.sender,
      files.map((f) => ({ path: f.name, size: f.size })),
      objects,
    );
    return transferFigure(parties, unit, amount, 'client', () => send(urlOf));
  };
  const cli = await cliCommand();
  const cliCase = async (paths: string[], unit: 'mb_per_s' | 'files_per_s', amount: number) => {
    const { key } = await setup.sender.call(api.apiKeys.create, { body: { name: 'bench' } });
    const target = {
      origin: setup.origin,
      apiKey: key,
      recipient: 'recipient@example.com',
      stateHome: path.join(setup.workDir, 'cli-state'),
    };
    return transferFigure(parties, unit, amount, 'client', () => cliSend(cli!, target, paths));
  };

  await setSlabFiles(setup.admin, false);
  const largeCases: [string, () => Promise<Figure>][] = [
    [
      'curl_4_ranges',
      () =>
        baseline(
          [files.big],
          sliceObjects(files.big.name, files.big.size, SLICES),
          (urlOf) => curlSlices(files.big, SLICES, urlOf),
          'mb_per_s',
          mb,
        ),
    ],
    ['engine', engine([files.big.file], 'mb_per_s', mb)],
  ];
  if (cli) largeCases.push(['cli', () => cliCase([files.big.file], 'mb_per_s', mb)]);
  const large = await rounds(setup.runs, 'mb_per_s', largeCases, (m) =>
    log(`node, large file: ${m}`),
  );

  const withSlabs = (on: boolean, measureCase: () => Promise<Figure>) => async () => {
    await setSlabFiles(setup.admin, on);
    try {
      return await measureCase();
    } finally {
      await setSlabFiles(setup.admin, false);
    }
  };
  const configFile = path.join(setup.workDir, 'curl-files.conf');
  const smallCases: [string, () => Promise<Figure>][] = [
    [
      'curl_parallel_10',
      () =>
        baseline(
          files.frames,
          wholeFileObjects(files.frames.map((f) => ({ path: f.name, size: f.size }))),
          (urlOf) => curlPerFile(files.frames, PARALLEL, urlOf, configFile),
          'files_per_s',
          sizes.count,
        ),
    ],
    ['engine_form_posts', engine([files.framesDir], 'files_per_s', sizes.count)],
    ['engine_slabs', withSlabs(true, engine([files.framesDir], 'files_per_s', sizes.count))],
  ];
  if (cli) {
    smallCases.push(['cli', () => cliCase([files.framesDir], 'files_per_s', sizes.count)]);
  }
  const small = await rounds(setup.runs, 'files_per_s', smallCases, (m) =>
    log(`node, small files: ${m}`),
  );

  return {
    one_large_file: {
      mib: sizes.bigBytes / 1024 ** 2,
      curl_4_ranges: large.curl_4_ranges!,
      engine: against(large.engine!, large.curl_4_ranges!, 'mb_per_s'),
      ...(large.cli ? { cli: against(large.cli, large.curl_4_ranges!, 'mb_per_s') } : {}),
    },
    small_files: {
      files: sizes.count,
      kib_each: sizes.size / 1024,
      curl_parallel_10: small.curl_parallel_10!,
      engine_form_posts: against(small.engine_form_posts!, small.curl_parallel_10!, 'files_per_s'),
      engine_slabs: against(small.engine_slabs!, small.curl_parallel_10!, 'files_per_s'),
      ...(small.cli ? { cli: against(small.cli, small.curl_parallel_10!, 'files_per_s') } : {}),
    },
  };
}
