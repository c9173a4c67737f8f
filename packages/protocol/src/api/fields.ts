import { z } from 'zod';
import { messages } from '../messages';

// The request fields every area builds on, apart from the route's shape in route.ts, which the
// clients read without zod.

/** The largest value of the database's integer columns (ids and counts). */
export const int32Max = 2_147_483_647;

/**
 * A row's id as a request names it: bounded to the database's integer, so an absurd number is
 * refused with the request and never reaches a query.
 */
export const rowId = z.number().int().positive().max(int32Max);

/**
 * Text a request carries to the database, stored or looked up: PostgreSQL text cannot hold a
 * NUL character, and its JSON cannot hold half of a UTF-16 surrogate pair (JSON escapes one,
 * jsonb refuses the escape), so either is refused with the request (a 400, or "not found" in a
 * path) instead of failing the query. Every request string is built from this; `message` is the
 * answer to a value that is no string at all.
 */
export const text = (message?: string) =>
  z
    .string(message)
    .regex(/^[^\0]*$/, messages.text.nulCharacter)
    // With the u flag a surrogate pair is one code point, so only lone halves match.
    .regex(/^[^\uD800-\uDFFF]*$/u, messages.text.brokenUnicode);

/** A numeric id in a path: a non-number is "not found", not a validation error. */
export const idParam = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(rowId);
/** A contract's or package's slug in a path. */
export const slugParam = text().min(1).max(200);
