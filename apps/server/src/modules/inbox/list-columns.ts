import { sql, type Column, type GetColumnData, type SQL } from 'drizzle-orm';

// A list statement answers its page as one JSON value (see inbox-lists.repository.ts), so each
// column it shows is needed twice: as SQL in the statement's `json_build_object`, and read back
// from the JSON into the typed value the views take. A list's columns are described once, as a
// shape (nested objects of parts), and both are derived from it: a new column is one line here
// plus its use in the view.
//
// The JSON object is flat (each leaf under its dotted path, `'pkg.sentAt'`), as the statements
// built it before the description existed; nesting is only in the value read back.

/** A row of a list's JSON: each leaf column's value under its dotted path. */
export type JsonRow = Record<string, unknown>;

/** One part of a shape placed at `key`: its JSON fields and how its value is read back. */
interface Placed<T> {
  readonly fields: ReadonlyArray<readonly [key: string, value: SQL]>;
  readonly read: (row: JsonRow) => T;
}

/** A column, or a group of them read as one value, not yet given its place in the shape. */
export interface Part<T> {
  (key: string): Placed<T>;
}

/** A list's columns: parts, nested in objects as the views read them. */
export type Shape = Part<unknown> | { readonly [key: string]: Shape };

/** The value a shape reads back: each part's value, nested as the shape is. */
export type ShapeValue<S> =
  S extends Part<infer T> ? T : { -readonly [K in keyof S]: ShapeValue<S[K]> };

const isPart = (shape: Shape): shape is Part<unknown> => typeof shape === 'function';

function place<S extends Shape>(shape: S, key: string): Placed<ShapeValue<S>> {
  if (isPart(shape)) return shape(key) as Placed<ShapeValue<S>>;
  const placed = Object.entries(shape).map(
    ([name, part]) => [name, place(part, key === '' ? name : `${key}.${name}`)] as const,
  );
  return {
    fields: placed.flatMap(([, p]) => p.fields),
    read: (row) => {
      const value: Record<string, unknown> = {};
      for (const [name, p] of placed) value[name] = p.read(row);
      return value as ShapeValue<S>;
    },
  };
}

/** A key the statement writes as an SQL string literal: only names this code gives. */
const keyLiteral = (key: string) => {
  if (!/^[A-Za-z_][\w.]*$/.test(key)) throw new Error(`not a list column key: ${key}`);
  return sql.raw(`'${key}'`);
};

/**
 * A shape's `json_build_object` arguments and the reader of one JSON row. PostgreSQL takes at
 * most 100 arguments to a function, so a shape holds at most 50 leaf columns.
 */
export function described<S extends Shape>(
  shape: S,
): {
  object: SQL;
  read: (row: JsonRow) => ShapeValue<S>;
} {
  const { fields, read } = place(shape, '');
  return {
    object: sql`json_build_object(${sql.join(
      fields.map(([key, value]) => sql`${keyLiteral(key)}, ${value}`),
      sql`, `,
    )})`,
    read,
  };
}

const leaf =
  <T>(value: SQL, read: (json: unknown) => T): Part<T> =>
  (key) => ({ fields: [[key, value]], read: (row) => read(row[key]) });

/**
 * A table column, read as drizzle reads it. A timestamp travels as whole milliseconds since the
 * epoch (a JSON number, exact where the text form would need parsing) and is read as a Date.
 */
export function column<C extends Column>(c: C): Part<GetColumnData<C>> {
  if (c.dataType === 'date') {
    return leaf(sql`floor(extract(epoch from ${c}) * 1000)::int8`, (ms) =>
      ms === null ? null : new Date(ms as number),
    ) as Part<GetColumnData<C>>;
  }
  return leaf(sql`${c}`, (json) => json as GetColumnData<C>);
}

/** A part of a left-joined table: null when the join found no row, whatever its columns say. */
export const leftJoined = <T>(part: Part<T>): Part<T | null> => part;

/** An expression whose JSON value is already the value the views read. */
export const value = <T>(expression: SQL<T>): Part<T> => leaf(expression, (json) => json as T);

/** A shape whose value the views read changed by `as` (defaults, a null group). */
export const mapped =
  <S extends Shape, T>(shape: S, as: (value: ShapeValue<S>) => T): Part<T> =>
  (key) => {
    const placed = place(shape, key);
    return { fields: placed.fields, read: (row) => as(placed.read(row)) };
  };

/**
 * The rows `from` (a FROM and WHERE) finds, ordered by `orderBy`, each read as `shape`: one
 * JSON array in the field, built by a subquery per row of the list.
 */
export function listOf<S extends Shape>(
  shape: S,
  query: { from: SQL; orderBy: SQL },
): Part<Array<ShapeValue<S>>> {
  const { object, read } = described(shape);
  return leaf(
    sql`(select coalesce(json_agg(${object} order by ${query.orderBy}), '[]'::json) ${query.from})`,
    (json) => (json as JsonRow[]).map(read),
  );
}
