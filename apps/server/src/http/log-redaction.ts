import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

/**
 * What the log must never carry, whatever its level: anything that lets a reader act as someone.
 * A signed store URL works until it expires, a download token for a day without a session, an
 * activation or reset link takes over an account, an external link opens a package; SQL
 * parameters hold whatever a statement was given (addresses, hashes, tokens).
 */
export const SECRET = '[secret]';

/** Fields of logged objects, at the top or one level down, that are secrets by their name. */
const SECRET_FIELDS = [
  'password',
  'password_confirm',
  'password_current',
  'password_new',
  'password_new_confirm',
  'token',
  'key',
];

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];

/**
 * Query parameters whose value is a secret: Swift's TempURL signature, the key of an external
 * package link, any token. `temp_url_expires` stays: it says when a URL stops working.
 */
const SECRET_QUERY = /^(?:temp_url_sig|key|token|signature)$/i;

/** A path character class: what may stand in one path segment of a URL inside free text. */
const SEGMENT = String.raw`[^/?#\s"'<>]+`;

/** Paths that carry a secret in a segment: download tokens, activation and reset tokens. */
const SECRET_PATHS = [
  new RegExp(String.raw`(/api/downloads/)${SEGMENT}`, 'gi'),
  new RegExp(String.raw`(/(?:activate|resetpassword)/${SEGMENT}/)${SEGMENT}`, 'gi'),
];

/** The same query parameters inside free text, their names percent-encoded or not. */
const SECRET_QUERY_IN_TEXT =
  /([?&](?:temp(?:_|%5f)url(?:_|%5f)sig|key|token|signature)=)[^&#\s"'<>]*/gi;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function redactPath(path: string): string {
  return SECRET_PATHS.reduce((out, pattern) => out.replace(pattern, `$1${SECRET}`), path);
}

/**
 * A request URL as the log may show it. The router matches the decoded path, so a path whose
 * decoded form names a secret is shown decoded and redacted; the query is split into
 * parameters, and one whose decoded name is a secret keeps its name and loses its value.
 */
export function redactUrl(url: string): string {
  const questionMark = url.indexOf('?');
  const rawPath = questionMark < 0 ? url : url.slice(0, questionMark);
  const plainPath = decoded(rawPath);
  const redactedPath = redactPath(plainPath);
  const path = redactedPath === plainPath ? rawPath : redactedPath;
  if (questionMark < 0) return path;
  const query = url
    .slice(questionMark + 1)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      const name = equals < 0 ? parameter : parameter.slice(0, equals);
      return SECRET_QUERY.test(decoded(name.replace(/\+/g, ' '))) ? `${name}=${SECRET}` : parameter;
    });
  return `${path}?${query.join('&')}`;
}

/** Any text (a message, a stack) with the secrets of the URLs it mentions replaced. */
export function redactText(text: string): string {
  return redactPath(text).replace(SECRET_QUERY_IN_TEXT, `$1${SECRET}`);
}

/** Fields of an error that describe it without repeating the values it was given. */
const ERROR_FIELDS = [
  'code',
  'statusCode',
  'status',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
  // The SQL text: drizzle sends values as parameters, never inside it.
  'query',
  'errno',
  'syscall',
  'path',
  'address',
  'port',
  'command',
  'responseCode',
  'problems',
] as const;

/** An error as the log shows it. */
export interface LoggedError {
  [field: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** Deeper causes than this are cut (and cycles end here too). */
const MAX_CAUSES = 5;

interface ErrorLike {
  message: string;
  name?: unknown;
  stack?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/**
 * An error's message without the values it quotes: drizzle appends the statement's parameters
 * ("Failed query: ...\nparams: a,b"), and PostgreSQL's data exceptions (SQLSTATE class 22, e.g.
 * `invalid input syntax for type uuid: "..."`) quote the value they refused.
 */
function safeMessage(error: ErrorLike): string {
  let message = error.message;
  const params = message.indexOf('\nparams: ');
  if (params >= 0) message = message.slice(0, params);
  if (typeof error.code === 'string' && /^22[0-9A-Z]{3}$/.test(error.code)) {
    message = message.replace(/"(?:[^"\\]|\\.)*"/g, `"${SECRET}"`);
  }
  return redactText(message);
}

/** The stack, whose first line repeats the message, with that message made safe. */
function safeStack(error: ErrorLike, message: string): string | undefined {
  if (typeof error.stack !== 'string') return undefined;
  if (error.stack.includes(error.message)) {
    return redactText(error.stack.replace(error.message, message));
  }
  // A stack that does not repeat the message as it is now: keep only its frames.
  const frames = error.stack.indexOf('\n    at ');
  return redactText(
    `${String(error.name ?? 'Error')}: ${message}${frames < 0 ? '' : error.stack.slice(frames)}`,
  );
}

function serializeError(error: unknown, depth: number): unknown {
  if (typeof error === 'string') return redactText(error);
  if (!isErrorLike(error)) return error;
  const message = safeMessage(error);
  const out: LoggedError = {
    type: String(error.constructor?.name ?? error.name),
    message,
    stack: safeStack(error, message) ?? '',
  };
  const fields = error as unknown as Record<string, unknown>;
  for (const field of ERROR_FIELDS) {
    const value = fields[field];
    if (value === undefined || value === null) continue;
    out[field] = typeof value === 'string' ? redactText(value) : value;
  }
  if (depth < MAX_CAUSES) {
    if (error.cause !== undefined) out.cause = serializeError(error.cause, depth + 1);
    if (Array.isArray(error.errors)) {
      out.aggregateErrors = error.errors.map((inner) => serializeError(inner, depth + 1));
    }
  }
  return out;
}

/**
 * The `err` serializer: type, message, stack, code and the other fields that describe an error,
 * its causes the same way. Everything else an error carries (drizzle's `params`,
 * PostgreSQL's `detail`, `where` and `internalQuery`, which repeat values) is left out.
 */
export function serializeLoggedError(error: Error): LoggedError {
  // Typed as Fastify declares it; the logger hands over whatever was logged as `err`.
  return serializeError(error, 0) as LoggedError;
}

/** The `req` serializer: Fastify's own fields, with the URL redacted. */
export function serializeLoggedRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: Array.isArray(version) ? version.join(', ') : version,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The logger options that keep secrets out: field redaction, the request and error
 * serializers, and a hook that redacts the URLs plain text messages mention (Fastify writes
 * some, e.g. "Reply was already sent ... in the <url> route").
 */
export const logRedaction = {
  redact: { paths: REDACT_PATHS, censor: SECRET },
  serializers: { req: serializeLoggedRequest, err: serializeLoggedError },
  hooks: {
    logMethod(args, method) {
      const safe = args.map((arg: unknown) => (typeof arg === 'string' ? redactText(arg) : arg));
      return method.apply(this, safe as Parameters<typeof method>);
    },
  },
} satisfies LoggerOptions;
