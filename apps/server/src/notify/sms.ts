import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { mobileHint } from '@filerunner/protocol';
import type { SmsSettings } from '../config';

/** One text message: to a number in E.164 form. */
export interface TextMessage {
  readonly to: string;
  readonly body: string;
}

/**
 * Delivers one text message or throws `SmsError`. Texts are sent while the caller waits (a PIN
 * is useless a minute late), so a failure reaches the person who asked instead of a queue.
 */
export interface SmsTransport {
  send(message: TextMessage): Promise<void>;
}

/**
 * The text message service could not take the message: it answered an error, or could not be
 * reached. The message says which, never what the text said.
 */
export class SmsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SmsError';
  }
}

/** A text that the service has neither taken nor refused by then is given up as failed. */
const SEND_TIMEOUT_MS = 10_000;

/**
 * A Twilio-compatible REST API (`SMS_URL` and friends): a form-encoded POST of To, From and Body
 * with the account's id and token as basic auth. Any 2xx means the service took the message.
 */
export function twilioSmsTransport(settings: SmsSettings): SmsTransport {
  const url = `${settings.url}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    async send(message) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ To: message.to, From: settings.from, Body: message.body }),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsError(`text message service unreachable: ${reason(error)}`);
      }
      // The answer is read and dropped: an error answer may quote the message it refused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) {
        throw new SmsError(
          `text message service answered ${response.status} ${response.statusText}`,
          response.status,
        );
      }
    },
  };
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? `${error.name} (${code})` : error.name;
}

/**
 * The embedded default: each text is written to `DATA_DIR/sms/<time>-<random>.txt` (To, then
 * the body) for a developer or a test to read, and logged with the number's last digits and the
 * file only: the body holds a PIN, which no log may show.
 */
export function capturedSmsTransport(dir: string, log: FastifyBaseLogger): SmsTransport {
  return {
    async send(message) {
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${Date.now()}-${randomBytes(4).toString('hex')}.txt`);
      await writeFile(file, `To: ${message.to}\n\n${message.body}\n`, { mode: 0o600 });
      log.info({ to: `…${mobileHint(message.to)}`, file }, 'text message captured');
    },
  };
}
