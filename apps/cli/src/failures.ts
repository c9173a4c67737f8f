import { ApiError } from '@filerunner/protocol';

/**
 * How `filerunner` ends, one code per kind of failure, so a delivery script can tell a typo in
 * its arguments from a revoked key, a refusal or a flaky line. Kept in step with `--help` and
 * the README.
 */
export const exitCodes = {
  sent: 0,
  /** A fault of the command itself (a bug): the message says what happened. */
  unexpected: 1,
  badArguments: 2,
  authentication: 3,
  /** The server refused the request and said why (an unknown contract, a recipient not allowed). */
  refused: 4,
  /** Files failed after their retries, the upload was stopped by its error rate, or the server failed. */
  uploadFailed: 5,
  /** Nothing answered at the URL, or not as FileRunner does. */
  unreachable: 6,
  /** Ctrl-C (SIGINT) or SIGTERM: stopped cleanly, the ledger kept for the next run. */
  interrupted: 130,
  terminated: 143,
} as const;

export type FailureKind = Exclude<keyof typeof exitCodes, 'sent'>;

/** The exit codes as `--help` lists them. */
export const exitCodesHelp = `
Exit codes:
  0    sent; the package's slug is printed on stdout
  2    bad arguments (a missing option, an address that is not one, no files to send)
  3    authentication failed (the API key is wrong, revoked or missing)
  4    refused by the server, with its message (unknown contract, recipient not allowed, ...)
  5    the upload failed (files failed after their retries, or the server failed);
       run the same command again to send what is missing
  6    the server could not be reached at --url, or did not answer as FileRunner
  130  interrupted by Ctrl-C (143 for SIGTERM); run the same command again to continue
  1    anything else (a fault of the command itself)`;

/** A failure the command reports in one message and ends on with its kind's exit code. */
export class CliFailure extends Error {
  override readonly name = 'CliFailure';

  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }

  get exitCode(): number {
    return exitCodes[this.kind];
  }
}

/**
 * `text` with the secrets an error may carry replaced by '…': a download grant's token (its URL
 * works for 24 hours, without a session: `/api/downloads/<token>/…`) and the values of `key=`
 * (a recipient's link) and of storage signatures in a query. Every message the command prints
 * about a failure goes through here, whatever raised it.
 */
export function withoutSecrets(text: string): string {
  return text
    .replace(/(\/downloads\/)[^/?#\s]+/g, '$1…')
    .replace(/([?&](?:key|api_key|token|signature|temp_url_sig)=)[^&#\s]*/gi, '$1…');
}

/**
 * The server's words from an error answer: its `detail`, or its field errors as
 * `field: message` (the shapes the API answers with), or null when it said nothing readable.
 */
export function serverMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail === 'string') return detail;
  const parts: string[] = [];
  for (const [field, value] of Object.entries(body)) {
    const texts = (Array.isArray(value) ? value : [value]).filter(
      (v): v is string => typeof v === 'string',
    );
    if (texts.length === 0) continue;
    parts.push(field === 'non_field_errors' ? texts.join(' ') : `${field}: ${texts.join(' ')}`);
  }
  return parts.length > 0 ? parts.join('; ') : null;
}

/**
 * The failure an API call ended with, in the words of what it was for (`toDo`, e.g. 'create
 * the package'). Secrets never reach the message: only statuses and the server's own text.
 */
export function failureOfCall(error: unknown, toDo: string, serverUrl: string): CliFailure {
  if (error instanceof CliFailure) return error;
  if (!(error instanceof ApiError)) {
    return new CliFailure('unexpected', `Could not ${toDo}: ${String(error)}`);
  }
  const said = serverMessage(error.body);
  if (error.status === 0) {
    return new CliFailure('unreachable', `Could not reach FileRunner at ${serverUrl} to ${toDo}.`);
  }
  if (error.status === 401) {
    return new CliFailure('authentication', `Authentication failed: ${said ?? 'not signed in.'}`);
  }
  const status = `(${error.status})${said ? `: ${said}` : '.'}`;
  if (error.status >= 500)
    return new CliFailure('uploadFailed', `The server failed to ${toDo} ${status}`);
  return new CliFailure('refused', `The server refused to ${toDo} ${status}`);
}
