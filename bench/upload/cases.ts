import { hundredths } from '../figures';
import type { apiSession } from './api-session';
import type { DiskFiles } from './disk-files';
import { limitOf, measure, settlePageCache, type Costs, type Parties } from './measure';

/** What every group of cases shares: the server, the API sessions, the sizes, the log. */
export interface Setup {
  origin: string;
  password: string;
  workDir: string;
  parties: Parties;
  admin: Awaited<ReturnType<typeof apiSession>>;
  sender: Awaited<ReturnType<typeof apiSession>>;
  sizes: { bigBytes: number; count: number; size: number; perFolder: number };
  /** The files every case sends, written to disk before anything is measured. */
  files: DiskFiles;
  /**
   * Where the page's files come from: 'disk' (the same files, set on the page's file inputs, as
   * a sender picks them) or 'opfs' (copies in the origin-private file system, picked as handles).
   */
  browserFiles: 'disk' | 'opfs';
  runs: number;
  /** Where browser transfers leave CPU profiles and timelines (`--profile`); '' for none. */
  profileDir: string;
  log: (message: string) => void;
}

export type Unit = 'mb_per_s' | 'files_per_s';
export type Figure = Record<string, unknown> & { seconds: number };

/**
 * Measures one transfer (after `settlePageCache`, so no write-back of earlier transfers overlaps
 * it and each starts on the same page cache) and makes its figure: the rate in `unit` over
 * `amount` (MB or files), the costs, what the transfer answered about itself, and the limit the
 * costs point to.
 */
export async function transferFigure(
  parties: Parties,
  unit: Unit,
  amount: number,
  clientName: string,
  work: () => Promise<{ seconds: number; client_cpu_s?: number } & Record<string, unknown>>,
): Promise<Figure> {
  await settlePageCache(parties.sources);
  const { result, costs } = await measure(parties, work);
  const { seconds: _seconds, client_cpu_s: _cpu, ...about } = result;
  return {
    [unit]: hundredths(amount / costs.seconds),
    ...costs,
    seconds: hundredths(costs.seconds),
    ...about,
    limit: limitOf(costs satisfies Costs, clientName),
  };
}

/**
 * Runs each case `runs` times, the order reversed every other round so that no case always runs
 * on a warmer (or fuller) machine. With one run a case's figure is that run's; with more it is
 * the run of median rate, with every run's rate beside it.
 */
export async function rounds(
  runs: number,
  unit: Unit,
  cases: [name: string, measure: () => Promise<Figure>][],
  log: (message: string) => void,
): Promise<Record<string, Figure>> {
  const taken = new Map<string, Figure[]>(cases.map(([name]) => [name, []]));
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const [name, measureCase] of order) {
      const figure = await measureCase();
      log(`${name}: ${String(figure[unit])} ${unit.replaceAll('_', ' ')} (${figure.limit})`);
      taken.get(name)!.push(figure);
    }
  }
  const figures: Record<string, Figure> = {};
  for (const [name, list] of taken) {
    const rate = (f: Figure) => f[unit] as number;
    const sorted = [...list].sort((a, b) => rate(a) - rate(b));
    const median = sorted[Math.floor(sorted.length / 2)]!;
    figures[name] = runs > 1 ? { ...median, [`${unit}_runs`]: list.map(rate) } : median;
  }
  return figures;
}

/** `figure`'s rate as a multiple of `baseline`'s, and whether that meets the goal. */
export function against(figure: Figure, baseline: Figure, unit: Unit, goal?: number) {
  const ratio = hundredths((figure[unit] as number) / (baseline[unit] as number));
  return {
    ...figure,
    ratio_to_baseline: ratio,
    ...(goal === undefined ? {} : { goal: `>= ${goal}x`, meets_goal: ratio >= goal }),
  };
}
