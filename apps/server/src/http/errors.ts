import type { z } from 'zod';
import type { FieldErrors } from '@filerunner/protocol';
import { messages } from '@filerunner/protocol';

export type ErrorCode =
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'rate_limited'
  | 'client_version_required'
  | 'login_failed'
  | 'invalid_token'
  | 'payload_too_large'
  | 'package_too_large'
  | 'conflict'
  | 'idempotency_key_reused'
  | 'pin_invalid'
  | 'pin_locked'
  | 'sms_failed';

/**
 * An error with a stable code and the body the spec's client reads. Handlers throw these; the
 * app's error handler writes them. Anything else is a 500 and is logged.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly body: Record<string, unknown>,
  ) {
    super(code);
  }

  static fields(errors: FieldErrors): ApiError {
    return new ApiError(400, 'validation', errors);
  }
  static detail(status: number, code: ErrorCode, detail: string): ApiError {
    return new ApiError(status, code, { detail });
  }
  static unauthenticated(): ApiError {
    return ApiError.detail(401, 'unauthenticated', messages.auth.required);
  }
  static forbidden(detail: string = messages.auth.forbidden): ApiError {
    return ApiError.detail(403, 'forbidden', detail);
  }
  static notFound(): ApiError {
    return ApiError.detail(404, 'not_found', messages.auth.notFound);
  }
}

/** Zod issues as `{"field": ["message"]}`; issues without a path go under `non_field_errors`. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'non_field_errors';
    const message =
      issue.code === 'invalid_type' && issue.input === undefined
        ? messages.password.required
        : issue.message;
    (out[key] ??= []).push(message);
  }
  return out;
}

/** Validates a request part with a protocol schema, answering 400 with field errors. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (!result.success) throw ApiError.fields(fieldErrorsOf(result.error));
  return result.data;
}
