import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { PendingWork } from './http/pending-work';
import type { Database } from './db/client';
import type { OutboxMail } from './db/schema';
import type { SessionStore } from './modules/accounts/sessions';
import type { RateLimiter } from './modules/accounts/rate-limit';
import type { ApiKeyStore } from './modules/apikeys/apikeys.repository';
import type { JobRunner } from './jobs/job-runner';
import type { SmsTransport } from './notify/sms';
import type { StorageDriver } from './storage';

/** Queues mail in the caller's transaction and nudges the sender once it has committed. */
export interface Mailbox {
  queue(db: Database, mail: OutboxMail): Promise<void>;
}

/** What the domain modules need, built once by `buildApp` and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  sessions: SessionStore;
  apiKeys: ApiKeyStore;
  limiter: RateLimiter;
  mailbox: Mailbox;
  /** Sends text messages (PINs) while the caller waits; captured to files by default. */
  sms: SmsTransport;
  jobs: JobRunner;
  /** Where package bytes live; browsers reach it only through signed grants. */
  storage: StorageDriver;
  /**
   * Work that outlives its response (download records, reset mails); awaited before the database
   * closes.
   */
  pendingWork: PendingWork;
}
