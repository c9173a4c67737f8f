import { describe, expect, it } from 'vitest';
import { latencyLimits } from '@filerunner/protocol';
import { axisMaximum, rateLatency, summarize, timeHost } from './latency-check';

const host = { name: 'lon1.example.com', url: 'https://lon1.example.com/' };
const group = { name: 'LON' };

/** A clock that moves on by `step` ms each time it is read. */
function clock(step: number) {
  let t = 0;
  return () => (t += step) - step;
}

describe('timeHost', () => {
  it("times 5 no-cors GETs of the host's /healthcheck, the fastest being its latency", async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const durations = [120, 40, 55, 42, 61];
    let t = 0;
    const result = await timeHost(host, group, {
      fetch: async (url, init) => {
        calls.push([String(url), init]);
        t += durations[calls.length - 1]!;
        return new Response(null);
      },
      now: () => t,
    });
    expect(result).toEqual({ host, group, success: true, latency: 40 });
    expect(calls).toHaveLength(latencyLimits.attemptsPerHost);
    expect(calls[0]![0]).toBe('https://lon1.example.com/healthcheck');
    expect(calls[0]![1]).toMatchObject({ mode: 'no-cors', cache: 'no-store' });
  });

  it('counts a host answering some GETs as up, and one answering none as no response', async () => {
    let calls = 0;
    const flaky = await timeHost(host, group, {
      fetch: async () => {
        if (++calls < 5) throw new TypeError('Failed to fetch');
        return new Response(null);
      },
      now: clock(10),
    });
    expect(flaky).toEqual({ host, group, success: true, latency: 10 });

    calls = 0;
    const down = await timeHost(host, group, {
      fetch: async () => {
        calls++;
        throw new TypeError('Failed to fetch');
      },
    });
    expect(calls).toBe(latencyLimits.attemptsPerHost);
    expect(down).toEqual({ host, group, success: false, latency: null });
  });

  it('stops when the page is left or refreshed', async () => {
    const controller = new AbortController();
    let calls = 0;
    const result = await timeHost(host, group, {
      fetch: async () => {
        calls++;
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      },
      signal: controller.signal,
    });
    expect(calls).toBe(1);
    expect(result.success).toBe(false);
  });
});

describe('the latency page figures', () => {
  it('sums a group up by its fastest host, Offline only when every host failed', () => {
    const lon = { name: 'LON', hosts: [host, { ...host, name: 'lon2' }] };
    const ok = (latency: number) => ({ host, group, success: true, latency });
    const failed = { host, group, success: false, latency: null };
    expect(summarize(lon, [ok(80), undefined])).toBeNull();
    expect(summarize(lon, [ok(80), ok(30)])).toEqual({ name: 'LON', success: true, latency: 30 });
    expect(summarize(lon, [failed, ok(300)])).toEqual({
      name: 'LON',
      success: true,
      latency: 300,
    });
    expect(summarize(lon, [failed, failed])).toEqual({
      name: 'LON',
      success: false,
      latency: null,
    });
  });

  it('ends the axis at 200 ms at least, else at 1.2 times the highest latency', () => {
    expect(axisMaximum([])).toBe(200);
    expect(axisMaximum([null, 20, 150])).toBe(200);
    expect(axisMaximum([500, null, 90])).toBe(600);
  });

  it('rates under 100 ms good, under 400 ms fair, else poor; no response failed', () => {
    expect([99, 100, 399, 400, null].map(rateLatency)).toEqual([
      'good',
      'fair',
      'fair',
      'poor',
      'failed',
    ]);
  });
});
