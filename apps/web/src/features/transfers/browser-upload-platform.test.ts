import { describe, expect, it } from 'vitest';
import type { HttpClient, HttpRequest } from '@filerunner/transfer';
import { reportingExpiry } from './browser-upload-platform';

/** Answers every request with these headers. */
const answering = (headers: Record<string, string>): HttpClient => ({
  request: async () => ({
    status: 200,
    header: (name) => headers[name] ?? null,
    text: async () => '',
  }),
});

const call = (url: string): HttpRequest => ({ method: 'POST', url });

describe("the engine's session expiry", () => {
  it("feeds the API answers' Expires into the countdown, against the server's clock", async () => {
    const reported: number[] = [];
    const http = reportingExpiry(
      answering({
        Date: 'Mon, 23 Nov 2026 10:00:00 GMT',
        Expires: 'Mon, 23 Nov 2026 11:00:00 GMT',
      }),
      (at) => reported.push(at),
    );
    const before = Date.now();
    await http.request(call('/api/packages/abc/updatefiles/'));
    expect(reported).toHaveLength(1);
    // An hour from now on this machine's clock, whatever the server's clock says.
    expect(reported[0]! - before).toBeGreaterThanOrEqual(3_600_000);
    expect(reported[0]! - Date.now()).toBeLessThanOrEqual(3_600_000);
  });

  it('leaves storage answers and answers without Expires alone', async () => {
    const reported: number[] = [];
    const storage = reportingExpiry(answering({ Expires: 'Mon, 23 Nov 2026 11:00:00 GMT' }), (at) =>
      reported.push(at),
    );
    await storage.request(call('/v1/AUTH_demo/packages/abc/segments/x/000001'));
    await reportingExpiry(answering({}), (at) => reported.push(at)).request(call('/api/user/'));
    expect(reported).toEqual([]);
  });
});
