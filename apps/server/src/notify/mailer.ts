import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxMail } from '../db/schema';

/** Delivers one mail or throws; the outbox decides about retries. */
export interface MailTransport {
  send(mail: OutboxMail): Promise<void>;
  close(): void;
}

function message(from: string, mail: OutboxMail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments?.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
    })),
  };
}

/** Real delivery through any SMTP server (`SMTP_URL`, e.g. smtp://user:pass@host:587). */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail(message(from, mail));
    },
    close: () => transport.close(),
  };
}

/**
 * The embedded default: each mail is written as an .eml file under `DATA_DIR/mail`, and logged
 * with its recipient, subject and file, so a developer finds it there to click through
 * activation and reset flows. Never with its link: activation, reset and external package
 * links are secrets, and a log is read by more people than the mail.
 */
export function capturedTransport(
  dir: string,
  from: string,
  log: FastifyBaseLogger,
): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(mail) {
      const info = await builder.sendMail(message(from, mail));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer);
      log.info({ to: mail.to, subject: mail.subject, file }, 'mail captured');
    },
    close: () => builder.close(),
  };
}
