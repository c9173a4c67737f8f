import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.url().optional();

/** Every setting the server reads, with its embedded default. README.md documents each one. */
const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
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
  SEED_DEMO: bool.default(true),
  DEMO_PASSWORD: z.string().optional(),
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
});

/** Where package bytes live: the embedded Swift-compatible store, or a Swift cluster. */
export type StorageSettings =
  | { driver: 'embedded'; tempUrlKey: string | undefined }
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

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  secureCookies: boolean;
  sessionTtlSeconds: number;
  /** How long after its login a session ends at the latest, however often it is extended. */
  sessionMaxAgeSeconds: number;
  tokenTtlHours: number;
  loginRateLimit: number;
  loginRateWindowSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
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
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    // npm runs workspace scripts inside the workspace; relative paths mean the caller's directory.
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_SECONDS,
    tokenTtlHours: e.TOKEN_TTL_HOURS,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    loginRateWindowSeconds: e.LOGIN_RATE_WINDOW_SECONDS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    storage,
  });
}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(/[\s,]+/).filter(Boolean);
}

function storageSettings(e: z.infer<typeof environment>): StorageSettings {
  if (e.STORAGE_DRIVER === 'embedded') {
    return { driver: 'embedded', tempUrlKey: e.EMBEDDED_STORE_TEMPURL_KEY };
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
