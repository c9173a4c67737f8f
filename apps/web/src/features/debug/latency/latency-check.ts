import {
  healthcheckUrl,
  latencyLimits,
  type LatencyGroup,
  type LatencyHost,
} from '@filerunner/protocol';

/** How one host answered: its latency in ms, or no response after every attempt. */
export interface LatencyResult {
  host: LatencyHost;
  group: { name: string };
  success: boolean;
  /** Milliseconds from the GET to its answer; null when the host gave no response. */
  latency: number | null;
}

/** A region or link as a whole: up when any of its hosts answered, as fast as the fastest. */
export interface GroupSummary {
  name: string;
  success: boolean;
  latency: number | null;
}

export interface TimingOptions {
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  /** Ends the measuring early: a refresh or leaving the page. */
  signal?: AbortSignal;
}

/**
 * Times a host's `/healthcheck` from this browser: 5 GETs one after another, each abandoned
 * after 60 s, and the fastest answer is its latency. The first GET also pays for the connection
 * (DNS, TCP, TLS), which the transfers' many requests do not; the fastest of 5 is the round trip
 * a transfer feels, and one slow answer does not make a region look slow. The GETs are no-cors
 * (the hosts need not allow this origin, and the answer is never read): any answer means the
 * host is reachable. A host that never answers is "No response"; one that let a GET run into the
 * timeout is not given another 60 s per attempt.
 */
export async function timeHost(
  host: LatencyHost,
  group: { name: string },
  { fetch = globalThis.fetch, now = () => performance.now(), signal }: TimingOptions = {},
): Promise<LatencyResult> {
  let fastest: number | null = null;
  for (let attempt = 0; attempt < latencyLimits.attemptsPerHost; attempt++) {
    if (signal?.aborted) break;
    const timeout = AbortSignal.timeout(latencyLimits.timeoutMs);
    const start = now();
    try {
      await fetch(healthcheckUrl(host), {
        mode: 'no-cors',
        cache: 'no-store',
        credentials: 'omit',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const latency = Math.round(now() - start);
      fastest = fastest === null ? latency : Math.min(fastest, latency);
    } catch {
      if (timeout.aborted) break;
      // Refused or cut this time: the next attempt may get through.
    }
  }
  return fastest === null
    ? { host, group, success: false, latency: null }
    : { host, group, success: true, latency: fastest };
}

/** The summary of a group from its hosts' results; null while any of them is still measuring. */
export function summarize(
  group: LatencyGroup,
  results: readonly (LatencyResult | undefined)[],
): GroupSummary | null {
  if (results.length < group.hosts.length || results.some((r) => r === undefined)) return null;
  const answered = results.flatMap((r) => (r?.success && r.latency !== null ? [r.latency] : []));
  return {
    name: group.name,
    success: answered.length > 0,
    latency: answered.length ? Math.min(...answered) : null,
  };
}

/** Where the latency axis ends: at least 200 ms, else 1.2 times the highest latency. */
export function axisMaximum(latencies: readonly (number | null)[]): number {
  const highest = Math.max(0, ...latencies.filter((l): l is number => l !== null));
  return Math.max(latencyLimits.axisMinimumMs, Math.ceil(highest * latencyLimits.axisHeadroom));
}

export type LatencyRating = 'good' | 'fair' | 'poor' | 'failed';

/** Green under 100 ms, amber under 400 ms, red above, grey when there was no response. */
export function rateLatency(latency: number | null): LatencyRating {
  if (latency === null) return 'failed';
  if (latency < latencyLimits.fastMs) return 'good';
  if (latency < latencyLimits.slowMs) return 'fair';
  return 'poor';
}

export const ratingColours: Record<LatencyRating, string> = {
  good: '#2e7d32',
  fair: '#ed6c02',
  poor: '#d32f2f',
  failed: '#9e9e9e',
};
