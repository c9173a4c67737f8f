import type { ReceiptChallenge, ReceiptReport } from '@filerunner/protocol';
import { BASE_HEADERS, type TestServer } from '../../../test/harness';
import { rangeAnswer } from './receipt-challenge';

/** Every file verified, nothing else reported. */
export const allVerified = (files: number): ReceiptReport => ({
  verified: files,
  unverified: [],
  failed: [],
});

/** The answers a client holding `bytesOf(path)` for each file gives to `challenge`. */
export function answersFrom(
  challenge: ReceiptChallenge,
  bytesOf: (path: string) => Uint8Array,
): string[] {
  return challenge.ranges.map((r) =>
    rangeAnswer(challenge.nonce, bytesOf(r.path).subarray(r.offset, r.offset + r.length)),
  );
}

/**
 * Asks a receipt as a client holding `bytesOf(path)` does: a challenge, then the answers with the
 * report. `base` is the package's API path (`/packages/<slug>` or `/packages/external/<slug>`),
 * `query` the link's `?key=` when there is one. Answers the receipt response.
 */
export async function askReceipt(
  server: TestServer,
  who: { base: string; query?: string; headers: Record<string, string> },
  bytesOf: (path: string) => Uint8Array,
  report: ReceiptReport,
) {
  const headers = { ...BASE_HEADERS, ...who.headers };
  const query = who.query ?? '';
  const asked = await server.app.inject({
    method: 'POST',
    url: `/api${who.base}/receipt/challenge/${query}`,
    headers,
  });
  if (asked.statusCode !== 201) return asked;
  const challenge = asked.json<ReceiptChallenge>();
  return server.app.inject({
    method: 'POST',
    url: `/api${who.base}/receipt/${query}`,
    headers,
    payload: {
      challenge: challenge.challenge,
      answers: answersFrom(challenge, bytesOf),
      ...report,
    },
  });
}
