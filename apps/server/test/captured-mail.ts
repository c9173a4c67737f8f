import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { vi } from 'vitest';

/**
 * The mails the embedded transport wrote into DATA_DIR/mail as .eml files, read with mailparser.
 * Server tests and the browser suites both read them through this module.
 */
export interface CapturedMail {
  /** The .eml file's name; names sort in the order the mails were written. */
  file: string;
  from: string;
  /** Every recipient, as one text ("a@example.com, B <b@example.com>"). */
  to: string;
  subject: string;
  text: string;
  /** Every http(s) address in the text, in order. */
  links: string[];
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** The mails in `dir`, oldest first; none when the folder does not exist yet. */
export async function readMailFolder(dir: string): Promise<CapturedMail[]> {
  const files = (await readdir(dir).catch(() => [] as string[]))
    .filter((file) => file.endsWith('.eml'))
    .sort();
  return Promise.all(
    files.map(async (file) => parseMail(file, await readFile(path.join(dir, file)))),
  );
}

/** One captured .eml file, read with mailparser. */
export async function parseMail(file: string, raw: Buffer): Promise<CapturedMail> {
  const mail = await simpleParser(raw);
  const text = mail.text ?? '';
  return {
    file,
    from: mail.from?.text ?? '',
    to: addresses(mail.to),
    subject: mail.subject ?? '',
    text,
    links: linksIn({ text }),
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? '',
      contentType: a.contentType,
      content: a.content,
    })),
  };
}

function addresses(field: AddressObject | AddressObject[] | undefined): string {
  if (!field) return '';
  return (Array.isArray(field) ? field : [field]).map((a) => a.text).join(', ');
}

/** Every http(s) address in a mail's text (a captured mail, or one mailparser read elsewhere). */
export function linksIn(mail: { text?: string | undefined }): string[] {
  return [...(mail.text ?? '').matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}

/** The first http(s) address in a mail's text. */
export function linkIn(mail: { text?: string | undefined }): string {
  const [link] = linksIn(mail);
  if (!link) throw new Error('mail has no link');
  return link;
}

export interface MailWait {
  /** Looks only at the mails after the first `since` (a count taken before the action). */
  since?: number;
  /** Among several matches, the newest instead of the oldest. */
  newest?: boolean;
  timeoutMs?: number;
  /** Runs before each look, e.g. to drain the server's outbox so queued mail is written. */
  beforeEachLook?: () => Promise<unknown>;
}

/** Waits until a mail in `dir` matches, and returns it. */
export async function waitForMailIn(
  dir: string,
  matches: (mail: CapturedMail) => boolean,
  { since = 0, newest = false, timeoutMs = 5000, beforeEachLook }: MailWait = {},
): Promise<CapturedMail> {
  return vi.waitFor(
    async () => {
      await beforeEachLook?.();
      const candidates = (await readMailFolder(dir)).slice(since);
      const found = (newest ? candidates.reverse() : candidates).find(matches);
      if (!found) throw new Error(`no captured mail in ${dir} matched`);
      return found;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}
