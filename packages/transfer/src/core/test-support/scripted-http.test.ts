import { describe, expect, it } from 'vitest';
import { ManualClock } from './manual-clock';
import { Gate, ScriptedHttp, UnexpectedRequestError } from './scripted-http';

const URL_A = 'https://api.test/a';

describe('ScriptedHttp', () => {
  it('rejects a request nobody scripted and keeps it for verify', async () => {
    const http = new ScriptedHttp();
    http.on('GET', URL_A).once({ json: { ok: true } });

    const answer = await http.request({ method: 'GET', url: `${URL_A}?x=1` });
    expect(await answer.text()).toBe('{"ok":true}');
    expect(answer.header('Content-Type')).toBe('application/json');
    await expect(http.request({ method: 'GET', url: URL_A })).rejects.toThrow(
      UnexpectedRequestError,
    );
    expect(() => http.verify()).toThrow(`GET ${URL_A}`);
  });

  it('answers from the route added last, then falls back to the earlier ones', async () => {
    const http = new ScriptedHttp();
    http.on('PUT', /\/a$/).reply({ status: 201 });
    http.on('PUT', URL_A).once({ status: 503 }, { networkError: 'reset' });

    const put = () => http.request({ method: 'PUT', url: URL_A, body: new Blob(['abc']) });
    expect((await put()).status).toBe(503);
    await expect(put()).rejects.toThrow('reset');
    expect((await put()).status).toBe(201);
    expect(http.requests.map((r) => [r.outcome, r.body.kind])).toEqual([
      [503, 'blob'],
      ['network-error', 'blob'],
      [201, 'blob'],
    ]);
    http.verify();
  });

  it('holds a request at a gate until released, and drops it when its signal aborts', async () => {
    const http = new ScriptedHttp({ clock: new ManualClock() });
    const gate = new Gate();
    http.on('GET', URL_A).times(2, gate);

    const first = http.request({ method: 'GET', url: URL_A });
    await gate.arrived;
    gate.release({ status: 204 });
    expect((await first).status).toBe(204);

    const stop = new AbortController();
    const second = http.request({ method: 'GET', url: URL_A, signal: stop.signal });
    await gate.arrived;
    stop.abort(new Error('stopped'));
    await expect(second).rejects.toThrow('stopped');
    expect(gate.waiting).toBe(0);
    expect(http.requests.map((r) => r.outcome)).toEqual([204, 'aborted']);
  });
});

describe('ManualClock', () => {
  it('passes sleeps at once, or holds them until time is moved on', async () => {
    const clock = new ManualClock(0);
    await clock.sleep(1000);
    expect(clock.now()).toBe(1000);

    clock.holdSleeps();
    let woke = false;
    const sleeping = clock.sleep(500).then(() => (woke = true));
    clock.advance(499);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(clock.slept).toEqual([1000, 500]);
  });
});
