import { describe, expect, it } from 'vitest';
import type { Clock, HttpClient, HttpRequest, HttpResponse } from './http';
import { backoffDelays, requestWithRetries, routeRetryPolicy } from './retry';
import { storageRetryPolicy } from './storage-retry';
import { defineRoute } from './route';

/** Answers requests from a script: a status, or an error for a request that got no answer. */
function scripted(answers: (number | Error)[]) {
  const requests: HttpRequest[] = [];
  const http: HttpClient = {
    async request(request) {
      requests.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error('the script ran out');
      if (next instanceof Error) throw next;
      return { status: next, header: () => null, text: async () => '' } satisfies HttpResponse;
    },
  };
  return { http, requests };
}

/** A clock that records each sleep and returns at once. */
function recordingClock() {
  const slept: number[] = [];
  const clock: Clock = {
    now: () => 0,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      slept.push(ms);
    },
  };
  return { clock, slept };
}

const noJitter = () => 0;
const get = (): HttpRequest => ({ method: 'GET', url: 'https://api.test/x' });

/** A read, a report that checks storage, and a write that may not be repeated. */
const read = defineRoute({
  method: 'GET',
  path: '/x/',
  summary: 'x',
  auth: 'user',
  status: 200,
  response: null,
});
const report = defineRoute({
  method: 'POST',
  path: '/r/',
  summary: 'r',
  auth: 'user',
  status: 200,
  response: null,
  idempotent: true,
  retryOn400: true,
  noTimeout: true,
});
const write = defineRoute({
  method: 'POST',
  path: '/w/',
  summary: 'w',
  auth: 'user',
  status: 201,
  response: null,
});

describe('backoffDelays', () => {
  it('doubles from the base and adds up to one base of jitter', () => {
    expect(backoffDelays(4, 500, noJitter)).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelays(2, 500, () => 0.999)).toEqual([999, 1499]);
  });
});

describe('an API call', () => {
  it('is tried again on server faults and 429, after the listed delays', async () => {
    const { http, requests } = scripted([503, 429, 200]);
    const { clock, slept } = recordingClock();
    const response = await requestWithRetries(http, get, routeRetryPolicy(read, noJitter), {
      clock,
    });
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(3);
    expect(slept).toEqual([500, 1000]);
    expect(requests[0]!.timeoutMs).toBe(60_000);
  });

  it('gives up after three retries and answers the last failure', async () => {
    const { http, requests } = scripted([500, 502, 503, 504, 200]);
    const { clock } = recordingClock();
    const response = await requestWithRetries(http, get, routeRetryPolicy(read, noJitter), {
      clock,
    });
    expect(response.status).toBe(504);
    expect(requests).toHaveLength(4);
  });

  it('retries a 400 only on the reports, which also have no timeout', async () => {
    const plain = scripted([400, 200]);
    const { clock } = recordingClock();
    expect(
      (await requestWithRetries(plain.http, get, routeRetryPolicy(read), { clock })).status,
    ).toBe(400);
    const reported = scripted([400, 200]);
    const policy = routeRetryPolicy(report);
    expect((await requestWithRetries(reported.http, get, policy, { clock })).status).toBe(200);
    expect(reported.requests[0]!.timeoutMs).toBeUndefined();
  });

  it('retries a request that got no answer, and fails with the last error', async () => {
    const { http } = scripted([
      new Error('reset'),
      new Error('reset'),
      new Error('reset'),
      new Error('down'),
    ]);
    const { clock } = recordingClock();
    await expect(requestWithRetries(http, get, routeRetryPolicy(read), { clock })).rejects.toThrow(
      'down',
    );
  });

  it('tells every failed attempt, and stops at once when aborted', async () => {
    const { http } = scripted([503, 503, 200]);
    const controller = new AbortController();
    const seen: number[] = [];
    const { clock } = recordingClock();
    const pending = requestWithRetries(http, get, routeRetryPolicy(read), {
      clock,
      signal: controller.signal,
      onFailedAttempt: (outcome) => {
        seen.push('response' in outcome ? outcome.response.status : 0);
        controller.abort(new Error('paused'));
      },
    });
    await expect(pending).rejects.toThrow('paused');
    expect(seen).toEqual([503]);
  });

  it('sends a write the server does not make idempotent once, whatever the answer', async () => {
    const { http, requests } = scripted([503, 201]);
    const { clock } = recordingClock();
    const response = await requestWithRetries(http, get, routeRetryPolicy(write), { clock });
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(1);
  });
});

describe('a storage request', () => {
  it('is tried five more times on any failure, with each attempt built afresh', async () => {
    const { http, requests } = scripted([403, 404, new Error('cut'), 500, 503, 201]);
    const { clock, slept } = recordingClock();
    let built = 0;
    const build = (): HttpRequest => ({ method: 'PUT', url: `https://store.test/${++built}` });
    const response = await requestWithRetries(http, build, storageRetryPolicy(noJitter), { clock });
    expect(response.status).toBe(201);
    expect(requests.map((r) => r.url)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `https://store.test/${n}`),
    );
    expect(slept).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(requests[0]!.timeoutMs).toBeUndefined();
  });
});
