import { expect } from 'vitest';

/** Headers as inject and fetch give them: one value per name, or several. */
type AnswerHeaders = Record<string, string | string[] | number | undefined>;

/**
 * Expects the headers with which bytes a user chose may reach a browser on the app's origin:
 * never sniffed, and sandboxed with nothing allowed should a browser open them anyway.
 */
export function expectSandboxed(headers: AnswerHeaders): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toBe("sandbox; default-src 'none'");
}

/** expectSandboxed, and an attachment of `type` (a type no browser renders). */
export function expectSandboxedAttachment(
  headers: AnswerHeaders,
  type = 'application/octet-stream',
): void {
  expectSandboxed(headers);
  expect(headers['content-type']).toBe(type);
  expect(String(headers['content-disposition'])).toMatch(/^attachment(;|$)/);
}
