import path from 'node:path';
import { z } from 'zod';
import type { LatencyGroup } from '@filerunner/protocol';
import { parseFreeFloor, type FreeFloorSetting } from './storage/free-space';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.url().optional();

const share = z.coerce.number().min(0).max(1);

/**
 * STORE_FAULTS: `fail=0.3,drop=0.05,stall=0.05,delay=200,seed=7`, every key optional; `off` or empty
 * for none. See StoreFaults for what each does.
 */
const storeFaults = z
  .string()
  .transform((text, ctx) => {
    const pairs = text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (pairs.length === 0 || (pairs.length === 1 && pairs[0] === 'off')) return null;
    const fields: Record<string, unknown> = {};
    for (const pair of pairs) {
      const [key, value, extra] = pair.split('=');
      if (!key?.trim() || !value?.trim() || extra !== undefined) {
        ctx.addIssue({ code: 'custom', message: `'${pair}' is not key=value` });
        return z.NEVER;
      }
      fields[key.trim()] = value.trim();
    }
    return fields;
  })
  .pipe(
    z
      .strictObject({
        fail: share.default(0),
        drop: share.default(0),
        stall: share.default(0),
        delay: z.coerce.number().int().min(0).max(600_000).default(0),
        seed: z.coerce.number().int().optional(),
      })
      .transform(({ fail, drop, stall, delay, seed }): StoreFaultSettings => ({
        fail,
        drop,
        stall,
        delayMs: delay,
        ...(seed === undefined ? {} : { seed }),
      }))
      .nullable(),
  );

/**
 * LATENCY_HOSTS: `LON=https://lon1.example.com,https://lon2.example.com;LAX=https://lax1.example.com`,
 * groups (a region or an inter-region link) separated by ';', each a name and the base URLs
 * of its hosts, whose `/healthcheck` the latency page times. A host is named by its host:port.
 * Blank: the embedded default (this server and its storage).
 */
const latencyHostsSetting = z.string().transform((text, ctx): LatencyGroup[] | null => {
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return null;
  const problem = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  const groups: LatencyGroup[] = [];
  for (const part of parts) {
    const equals = part.indexOf('=');
    const name = part.slice(0, equals).trim();
    if (equals < 0 || !name) return problem(`'${part}' is not GROUP=url,url`);
    if (groups.some((g) => g.name === name)) return problem(`the group ${name} is listed twice`);
    const urls = part
      .slice(equals + 1)
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean);
    if (urls.length === 0) return problem(`the group ${name} lists no host`);
    const hosts = [];
    for (const text of urls) {
      const url = URL.canParse(text) ? new URL(text) : null;
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        return problem(`${name}: '${text}' is not an http(s) URL`);
      }
      if (url.search || url.hash || url.username || url.password) {
        return problem(`${name}: '${text}' must be a base URL, without query, fragment or login`);
      }
      hosts.push({ name: url.host, url: url.href.replace(/\/+$/, '') });
    }
    groups.push({ name, hosts });
  }
  return groups;
});

/** Every setting the server reads, with its embedded default. README.md documents each one. */
const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  EMBEDDED_DB_USER: z.string().min(1).optional(),
  PUBLIC_URL: z.url().optional(),
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(8 * 3600),
  SESSION_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 24 * 3600),
  TOKEN_TTL_HOURS: z.coerce.number().int().min(1).default(72),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('FileRunner <no-reply@filerunner.local>'),
  SMS_URL: optionalUrl,
  SMS_ACCOUNT_SID: z.string().min(1).optional(),
  SMS_AUTH_TOKEN: z.string().min(1).optional(),
  SMS_FROM: z.string().min(1).optional(),
  SEED_DEMO: bool.default(true),
  // `DEMO_PASSWORD=` (as a copied .env line leaves it) asks for a generated one, like no value.
  DEMO_PASSWORD: z
    .string()
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z.string().default('false'),
  STORAGE_DRIVER: z.enum(['embedded', 'swift']).default('embedded'),
  EMBEDDED_STORE_TEMPURL_KEY: z.string().min(16).optional(),
  SWIFT_AUTH_URL: optionalUrl,
  SWIFT_USER: z.string().optional(),
  SWIFT_KEY: z.string().optional(),
  SWIFT_STORAGE_URL: optionalUrl,
  SWIFT_TOKEN: z.string().optional(),
  SWIFT_TEMPURL_KEY: z.string().min(16).optional(),
  SWIFT_ALTERNATIVE_URLS: z.string().optional(),
  STORE_FAULTS: storeFaults.optional(),
  HELP_URL: optionalUrl,
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  DRAIN_SECONDS: z.coerce.number().min(0).max(600).default(0),
  OBJECT_SWEEP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  LATENCY_HOSTS: latencyHostsSetting.optional(),
  STORAGE_FREE_FLOOR: z
    .string()
    .transform((text, ctx) => {
      const floor = parseFreeFloor(text);
      if (floor) return floor;
      ctx.addIssue({
        code: 'custom',
        message: `'${text}' is not a size (512MiB, 2GB, bytes) or a share of the volume (10%)`,
      });
      return z.NEVER;
    })
    .optional(),
  NODE_ENV: z.string().optional(),
});

/**
 * Faults the embedded store injects into storage requests and download answers (never the
 * rest of /api), for transfer tests: `fail`, `drop` and `stall` are shares of requests (0 to 1),
 * `delayMs` holds every one.
 */
export interface StoreFaultSettings {
  /** Share answered 503 Service Unavailable. */
  readonly fail: number;
  /** Share of the requests not failed whose connection is cut mid-body (upload or download). */
  readonly drop: number;
  /**
   * Share of the requests neither failed nor dropped that stall: a download sends half its body
   * and then nothing, its connection left open, until the client gives up (an upload picked
   * for a stall is cut as for a drop).
   */
  readonly stall: number;
  /** Milliseconds every storage request waits before it is handled. */
  readonly delayMs: number;
  /** Picks faulted requests pseudo-randomly from this seed; evenly spread without one. */
  readonly seed?: number;
}

/** Where package bytes live: the embedded Swift-compatible store, or a Swift cluster. */
export type StorageSettings =
  | { driver: 'embedded'; tempUrlKey: string | undefined; faults: StoreFaultSettings | null }
  | {
      driver: 'swift';
      authUrl: string;
      user: string;
      key: string;
      storageUrl: string | undefined;
      token: string | undefined;
      tempUrlKey: string;
      alternativeUrls: string[];
    };

/**
 * A Twilio-compatible text message API: messages are POSTed to
 * `{url}/2010-04-01/Accounts/{accountSid}/Messages.json` with basic auth.
 */
export interface SmsSettings {
  readonly url: string;
  readonly accountSid: string;
  readonly authToken: string;
  /** The sender: a number in E.164 form or an alphanumeric sender id. */
  readonly from: string;
}

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The OS user the embedded PostgreSQL runs as when FileRunner runs as root (it refuses root). */
  embeddedDbUser: string | undefined;
  publicUrl: string;
  /** Whether PUBLIC_URL was set; false: publicUrl is the default, a guess from PORT. */
  publicUrlSet: boolean;
  secureCookies: boolean;
  sessionTtlSeconds: number;
  /** How long after its login a session ends at the latest, however often it is extended. */
  sessionMaxAgeSeconds: number;
  tokenTtlHours: number;
  loginRateLimit: number;
  loginRateWindowSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where PIN text messages go; null: captured to `DATA_DIR/sms` (the embedded default). */
  sms: SmsSettings | null;
  seedDemo: boolean;
  demoPassword: string | undefined;
  logLevel: z.infer<typeof environment>['LOG_LEVEL'];
  webDist: string;
  /**
   * Fastify's trustProxy: false, true, a hop count, or addresses/CIDRs of the proxies whose
   * X-Forwarded-For is believed (rate limits count per client address).
   */
  trustProxy: boolean | number | string[];
  storage: StorageSettings;
  /** The operator's help centre the help links open; null: the help page inside the product. */
  helpUrl: string | null;
  /**
   * Free space the data folder's volume keeps for the embedded database: new objects are
   * refused (507) while the volume is under it, and /healthcheck says degraded.
   */
  storageFreeFloor: FreeFloorSetting;
  /** The bearer token /metrics asks for; null: /metrics is not served. */
  metricsToken: string | null;
  /**
   * Seconds a stopping node answers /readyz 503 while still serving everything, so a load
   * balancer polling it stops sending new work before the node closes its port.
   */
  drainSeconds: number;
  /** Seconds between two passes of the object sweeper, which deletes expired packages' files. */
  objectSweepSeconds: number;
  /**
   * The hosts the latency page times, by region and inter-region link (LATENCY_HOSTS); null:
   * this server and its storage endpoint.
   */
  latencyGroups: readonly LatencyGroup[] | null;
}>;

export class ConfigError extends Error {}

/** Parses the environment once; a bad variable stops the start with its name in the message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const storage = storageSettings(e);
  const sms = smsSettings(e);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    // npm runs workspace scripts inside the workspace; relative paths mean the caller's directory.
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    embeddedDbUser: e.EMBEDDED_DB_USER,
    publicUrl,
    publicUrlSet: e.PUBLIC_URL !== undefined,
    secureCookies: publicUrl.startsWith('https://'),
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_SECONDS,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    loginRateWindowSeconds: e.LOGIN_RATE_WINDOW_SECONDS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sms,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    storage,
    helpUrl: e.HELP_URL ?? null,
    storageFreeFloor: e.STORAGE_FREE_FLOOR ?? { kind: 'default' as const },
    metricsToken: e.METRICS_TOKEN ?? null,
    drainSeconds: e.DRAIN_SECONDS,
    objectSweepSeconds: e.OBJECT_SWEEP_SECONDS,
    latencyGroups: e.LATENCY_HOSTS ?? null,
  });
}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(/[\s,]+/).filter(Boolean);
}

function smsSettings(e: z.infer<typeof environment>): SmsSettings | null {
  const named = ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'] as const;
  if (!e.SMS_URL) {
    const stray = named.filter((name) => e[name] !== undefined);
    if (stray.length) {
      throw new ConfigError(
        `Invalid configuration:\n  ${stray.join(', ')} set without SMS_URL; set SMS_URL too, or unset them to capture text messages`,
      );
    }
    return null;
  }
  const missing = named.filter((name) => !e[name]);
  if (missing.length) {
    throw new ConfigError(`Invalid configuration:\n  SMS_URL needs ${missing.join(', ')}`);
  }
  return {
    url: e.SMS_URL.replace(/\/+$/, ''),
    accountSid: e.SMS_ACCOUNT_SID!,
    authToken: e.SMS_AUTH_TOKEN!,
    from: e.SMS_FROM!,
  };
}

function storageSettings(e: z.infer<typeof environment>): StorageSettings {
  const faults = e.STORE_FAULTS ?? null;
  if (faults && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  STORE_FAULTS injects storage failures for tests; unset it when NODE_ENV=production',
    );
  }
  if (e.STORAGE_DRIVER === 'embedded') {
    return { driver: 'embedded', tempUrlKey: e.EMBEDDED_STORE_TEMPURL_KEY, faults };
  }
  if (faults) {
    throw new ConfigError(
      'Invalid configuration:\n  STORE_FAULTS works with the embedded store only, not STORAGE_DRIVER=swift',
    );
  }
  const missing = ['SWIFT_AUTH_URL', 'SWIFT_USER', 'SWIFT_KEY', 'SWIFT_TEMPURL_KEY'].filter(
    (name) => !e[name as keyof typeof e],
  );
  if (missing.length) {
    throw new ConfigError(
      `Invalid configuration:\n  STORAGE_DRIVER=swift needs ${missing.join(', ')}`,
    );
  }
  return {
    driver: 'swift',
    authUrl: e.SWIFT_AUTH_URL!,
    user: e.SWIFT_USER!,
    key: e.SWIFT_KEY!,
    storageUrl: e.SWIFT_STORAGE_URL,
    token: e.SWIFT_TOKEN,
    tempUrlKey: e.SWIFT_TEMPURL_KEY!,
    alternativeUrls: (e.SWIFT_ALTERNATIVE_URLS ?? '').split(/[\s,]+/).filter(Boolean),
  };
}
