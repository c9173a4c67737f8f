import type { FieldErrors } from '../accounts';

/** Why a call failed: the server answered with an error status, took too long, or never answered. */
export type ApiErrorCode = 'HTTP_ERROR' | 'TIMEOUT' | 'NETWORK_ERROR';

/**
 * A call of the API that failed, after its retries: `status` is 0 when nothing answered, `body`
 * the parsed answer. Its message is the server's own words for the failure when it gave some
 * (the first `detail`, else the first field message), so it can be shown as it is.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly code: ApiErrorCode,
    readonly status: number,
    readonly body: unknown,
    /** `POST /packages/:slug/bulk/`: the route, never its filled-in path, which may hold a link key. */
    readonly call: string,
  ) {
    super(serverMessageOf(body) ?? `${call}: ${code === 'HTTP_ERROR' ? status : code}`);
  }

  /** The server's own words for the failure: its first `detail`, else its first field message. */
  get serverMessage(): string | undefined {
    return serverMessageOf(this.body);
  }

  /** The `detail` string of a `{"detail": ...}` answer (the first, when it is a list). */
  get detail(): string | undefined {
    return this.details[0];
  }

  /**
   * Every message of the answer's `detail`, whether it is one string or a list (the external-users
   * and remove-user calls answer `{"detail": ["message", ...]}`).
   */
  get details(): string[] {
    return detailsOf(this.body);
  }

  /** The `{"field": ["message"]}` part of the answer (also when nested under `errors`). */
  get fieldErrors(): FieldErrors {
    return fieldErrorsOf(this.body);
  }
}

function detailsOf(body: unknown): string[] {
  const detail = isRecord(body) ? body.detail : undefined;
  if (typeof detail === 'string') return [detail];
  return Array.isArray(detail) ? detail.filter((m): m is string => typeof m === 'string') : [];
}

function fieldErrorsOf(body: unknown): FieldErrors {
  const source = isRecord(body) && isRecord(body.errors) ? body.errors : body;
  const errors: FieldErrors = {};
  if (!isRecord(source)) return errors;
  for (const [field, value] of Object.entries(source)) {
    if (Array.isArray(value)) errors[field] = value.filter((m) => typeof m === 'string');
    else if (typeof value === 'string' && field !== 'detail') errors[field] = [value];
  }
  return errors;
}

function serverMessageOf(body: unknown): string | undefined {
  return detailsOf(body)[0] ?? Object.values(fieldErrorsOf(body)).flat()[0];
}

/** Whether a value is a plain object (a JSON object), not null or an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
