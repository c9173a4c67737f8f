import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';
import { cpuSeconds, processTree } from '../storage/processes';
import { callPage, type BenchBrowser } from './browser';
import type { TimelineEvent } from './page/api';

/** Sampling interval of the CPU profiles, in microseconds (V8's default is 1000). */
const SAMPLING_US = 250;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * The page's workers (the hash worker, the file writer) seen through the page's DevTools session:
 * attached without flattening, so that messages to them go through `Target.sendMessageToTarget`
 * on the one session playwright gives.
 */
class WorkerSessions {
  readonly workers = new Map<string, { url: string; profiling: boolean }>();
  private nextId = 1;
  private readonly pending = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
      if (!targetInfo.type.includes('worker')) return;
      this.workers.set(sessionId, { url: targetInfo.url, profiling: false });
      void this.startProfiling(sessionId);
    });
    cdp.on('Target.detachedFromTarget', ({ sessionId }) => {
      if (sessionId) this.workers.delete(sessionId);
    });
    cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
      const reply = JSON.parse(message) as { id?: number } & Record<string, unknown>;
      if (reply.id === undefined) return;
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
    });
  }

  async attach() {
    await this.cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
  }

  send(sessionId: string, method: string, params: object = {}) {
    const id = this.nextId++;
    const answered = new Promise<Record<string, unknown>>((resolve) =>
      this.pending.set(id, resolve),
    );
    void this.cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method, params }),
    });
    return answered;
  }

  private async startProfiling(sessionId: string) {
    await this.send(sessionId, 'Profiler.enable');
    await this.send(sessionId, 'Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await this.send(sessionId, 'Profiler.start');
    const worker = this.workers.get(sessionId);
    if (worker) worker.profiling = true;
  }

  /** Stops every worker's profiler; answers the profiles by worker URL. */
  async stop(): Promise<{ url: string; profile: CpuProfile }[]> {
    const profiles = [];
    for (const [sessionId, worker] of this.workers) {
      if (!worker.profiling) continue;
      const reply = await this.send(sessionId, 'Profiler.stop');
      const result = reply.result as { profile?: CpuProfile } | undefined;
      if (result?.profile) profiles.push({ url: worker.url, profile: result.profile });
    }
    await this.cdp.send('Target.setAutoAttach', {
      autoAttach: false,
      waitForDebuggerOnStart: false,
    });
    return profiles;
  }
}

/** Chromium's processes by kind (browser, renderer, network, storage...) with their pids. */
async function chromiumProcesses(pid: number): Promise<Map<string, number[]>> {
  const kinds = new Map<string, number[]>();
  for (const child of await processTree(pid)) {
    // Chromium rewrites its children's command lines as one string with spaces.
    const cmdline = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    const command = cmdline.split(/[\0 ]/);
    const type = command.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
    const sub = command.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    const kind = sub ? sub.replace(/\.mojom\..*/, '') : type;
    kinds.set(kind, [...(kinds.get(kind) ?? []), child]);
  }
  return kinds;
}

async function cpuByKind(pid: number): Promise<Record<string, number>> {
  const cpu: Record<string, number> = {};
  for (const [kind, pids] of await chromiumProcesses(pid)) cpu[kind] = await cpuSeconds(pids);
  return cpu;
}

/** Self and total milliseconds per function of a CPU profile, the most expensive first. */
export function topFunctions(profile: CpuProfile, count = 25): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url ? path.basename(url.split('?')[0]!) : '';
    return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the gap to the next one.
    const ms = (deltas[i + 1] ?? 0) / 1000;
    let node = byId.get(samples[i]!);
    if (!node) continue;
    self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + ms);
    const seen = new Set<string>();
    while (node) {
      const name = nameOf(node);
      if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + ms);
      seen.add(name);
      node = byId.get(parent.get(node.id) ?? -1);
    }
  }
  const wall = (profile.endTime - profile.startTime) / 1000;
  const idle = self.get('(idle)') ?? 0;
  const lines = [`wall ${wall.toFixed(0)} ms, busy ${(wall - idle).toFixed(0)} ms`];
  lines.push('  self ms  total ms  function');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    lines.push(
      `${ms.toFixed(1).padStart(9)} ${(total.get(name) ?? 0).toFixed(1).padStart(9)}  ${name}`,
    );
  }
  lines.push('  by total:');
  const totals = [...total].filter(([name]) => !name.startsWith('(root)'));
  for (const [name, ms] of totals.sort((a, b) => b[1] - a[1]).slice(0, count)) {
    lines.push(`${''.padStart(9)} ${ms.toFixed(1).padStart(9)}  ${name}`);
  }
  return lines;
}

/** Counts, durations and mean concurrency of the timeline's events, per kind. */
export function timelineSummary(events: TimelineEvent[]): string[] {
  if (events.length === 0) return ['no events'];
  const first = Math.min(...events.map((e) => e.start));
  const last = Math.max(...events.map((e) => e.end));
  const span = last - first;
  const lines = [`span ${span.toFixed(0)} ms`];
  const kinds = new Map<string, TimelineEvent[]>();
  for (const event of events) {
    const kind =
      event.kind === 'api'
        ? `api ${event.name.replace(/\/packages\/[^/]+\/[^/]+\//, '/…/')}`
        : event.kind;
    kinds.set(kind, [...(kinds.get(kind) ?? []), event]);
  }
  for (const [kind, list] of kinds) {
    const durations = list.map((e) => e.end - e.start).sort((a, b) => a - b);
    const sum = durations.reduce((a, b) => a + b, 0);
    const at = (q: number) =>
      durations[Math.min(durations.length - 1, Math.floor(q * durations.length))]!;
    const failed = list.filter((e) => !e.ok).length;
    lines.push(
      `${kind}: ${list.length}${failed ? ` (${failed} failed)` : ''}, ms median ${at(0.5).toFixed(1)} p90 ${at(0.9).toFixed(1)} max ${at(1).toFixed(1)}, in flight on average ${(sum / span).toFixed(2)}, first start +${(Math.min(...list.map((e) => e.start)) - first).toFixed(0)} last end +${(Math.max(...list.map((e) => e.end)) - first).toFixed(0)}`,
    );
  }
  return lines;
}

/**
 * Runs `work` with the page and its workers under V8's sampling profiler and a timeline of the
 * engine's requests, hashes and ledger writes, and Chromium's CPU per process kind; writes
 * `<name>.page.cpuprofile`, `<name>.worker-N.cpuprofile` (open them in Chrome's DevTools),
 * `<name>.timeline.json` and a readable `<name>.txt` into `dir`.
 */
export async function profileWhile<T>(
  browser: BenchBrowser,
  dir: string,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  await mkdir(dir, { recursive: true });
  const cdp = await browser.context.newCDPSession(browser.page);
  const workers = new WorkerSessions(cdp);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
  await workers.attach();
  await callPage(browser.page, 'startTimeline');
  const cpuBefore = await cpuByKind(browser.pid);
  await cdp.send('Profiler.start');
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const { profile } = await cdp.send('Profiler.stop');
  const workerProfiles = await workers.stop();
  const cpuAfter = await cpuByKind(browser.pid);
  const timeline = await callPage(browser.page, 'takeTimeline');
  await cdp.detach();

  const out = (file: string) => path.join(dir, `${name}.${file}`);
  const report = [`${name}: ${seconds.toFixed(2)} s`, 'Chromium CPU seconds by process:'];
  for (const [kind, after] of Object.entries(cpuAfter)) {
    const used = after - (cpuBefore[kind] ?? 0);
    report.push(`  ${kind}: ${used.toFixed(2)} s (${(used / seconds).toFixed(2)} cores)`);
  }
  report.push('', 'timeline:', ...timelineSummary(timeline));
  await writeFile(out('page.cpuprofile'), JSON.stringify(profile));
  report.push('', 'page:', ...topFunctions(profile as CpuProfile));
  for (const [i, worker] of workerProfiles.entries()) {
    await writeFile(out(`worker-${i}.cpuprofile`), JSON.stringify(worker.profile));
    report.push('', `worker ${i} (${path.basename(worker.url)}):`, ...topFunctions(worker.profile));
  }
  await writeFile(out('timeline.json'), JSON.stringify(timeline));
  await writeFile(out('txt'), `${report.join('\n')}\n`);
  return result;
}
