import fc from 'fast-check';
import type { z } from 'zod';
import { methodOf, type ApiRoute, type HttpMethod } from '@filerunner/protocol';

/**
 * Random requests for any call of the route table, for the fuzz that asserts no request makes
 * the server fail. Values lean on what broke it before: NUL characters (PostgreSQL text cannot
 * hold them), numbers past the database's integer, lone surrogates, '..' and very long text.
 */

/** Names a real row of the test's fixtures, resolved when the request is made. */
export type Fixture = 'contract' | 'package' | 'group' | 'member' | 'uid' | 'apiKey';

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'name\u0000',
  '..',
  '../..',
  '.',
  '2147483648',
  '-2147483649',
  '99999999999999999999',
  '-1',
  '0',
  '1e3',
  '\uD800',
  'a\uDC00b',
  '😀 名前 Ünïcödé',
  '%00',
  '\\',
  "'; drop table users; --",
  'x'.repeat(5000),
  'someone@example.com',
  'a@b',
  'Correct-Horse7!',
  '2024-01-01',
  new Date().toISOString(),
  '+447700900123',
] as const;

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
      .map(([a, b]) => `${a}\u0000${b}`),
    weight: 2,
  },
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    2,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_648,
    -2_147_483_649,
    4_294_967_296,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e20,
    1e300,
    1.5,
    -0.5,
  ),
  fc.integer(),
  fc.maxSafeNat(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/**
 * Values a call would accept, so that a request whose other fields are nasty still gets past
 * them: the nasty one then reaches the deeper checks and the query. Ids are small, as the test
 * database's rows are.
 */
const plausibleString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('Fuzzed', 'someone@example.com', 'x.txt', '2024-01-01', '+447700900123', '7'),
  fc.constant(new Date(Date.now() + 3600_000).toISOString()),
  fc.stringMatching(/^[a-z]{1,8}$/),
);
const plausibleNumber: fc.Arbitrary<number> = fc.integer({ min: 0, max: 10 });

/** A value of any JSON type, nasty ones first. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(nastyString, nastyNumber), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** The parts of a zod schema this walk needs (zod keeps them on `_zod.def`). */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The field names of an object schema (through optional, default and pipe wrappers). */
export function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(schema);
  if (def.shape) return Object.keys(def.shape);
  const inner = def.innerType ?? def.in;
  return inner ? fieldsOf(inner) : [];
}

/**
 * A value shaped like the schema (its objects' real field names, its arrays, its enums), whose
 * leaves are of every type and often the nasty ones, so requests get past the first check and
 * reach the deeper ones and the handler. Now and then any node is replaced by any value.
 */
export function shapedLike(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: shapedNode(schema), weight: 6 }, { arbitrary: anyValue, weight: 1 });
}

function shapedNode(schema: z.ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const fields = Object.fromEntries(
        Object.entries(def.shape!).map(([name, field]) => [name, shapedLike(field)]),
      );
      return fc.oneof(
        { arbitrary: fc.record(fields), weight: 3 },
        { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
        {
          arbitrary: fc.dictionary(fc.constantFrom(...Object.keys(fields), 'unknown'), anyValue, {
            maxKeys: 4,
          }),
          weight: 1,
        },
      );
    }
    case 'array':
      return fc.array(shapedLike(def.element!), { maxLength: 4 });
    case 'union':
      return fc.oneof(...def.options!.map(shapedLike));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return shapedLike(def.innerType!);
    case 'pipe':
      return shapedLike(def.in!);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'literal':
      return fc.constantFrom(...def.values!);
    case 'string':
      return fc.oneof(plausibleString, nastyString);
    case 'number':
      return fc.oneof(plausibleNumber, nastyNumber);
    case 'boolean':
      return fc.boolean();
    default:
      return anyValue;
  }
}

/** A path parameter: a real row now and then, else text of any kind, or raw broken escapes. */
export type PathValue = { fixture: Fixture } | { text: string } | { raw: string };

/** The real rows a path parameter may name: a slug is a package's under /packages/. */
function fixturesFor(name: string, path: string): Fixture[] {
  switch (name) {
    case 'slug':
      return path.startsWith('/packages/') ? ['package'] : ['contract'];
    case 'contract':
      return ['contract'];
    case 'package':
      return ['package'];
    case 'groupId':
      return ['group'];
    case 'userId':
      return ['member'];
    case 'uid':
      return ['uid'];
    case 'uuid':
      return ['apiKey'];
    default:
      return [];
  }
}

function pathValue(name: string, path: string): fc.Arbitrary<PathValue> {
  const fixtures = fixturesFor(name, path);
  const text = fc.oneof(
    nastyString,
    nastyNumber.map(String),
    fc.constantFrom('x.txt', 'a/b/c.txt', 'a/../b'),
  );
  const raw = fc.constantFrom('%00', '%ff', '%', '%E0%A4%A', 'a%2Fb').map((r) => ({ raw: r }));
  return fc.oneof(
    ...(fixtures.length
      ? [{ arbitrary: fc.constantFrom(...fixtures).map((fixture) => ({ fixture })), weight: 6 }]
      : []),
    { arbitrary: text.map((t) => ({ text: t })), weight: 3 },
    { arbitrary: raw, weight: 1 },
  );
}

/** One generated request, before its fixtures are resolved. */
export interface FuzzRequest {
  route: ApiRoute;
  method: HttpMethod;
  params: Record<string, PathValue>;
  query: Record<string, string | string[]> | undefined;
  /** JSON for a JSON call, text fields for a form call, or nothing. */
  body: { json: unknown } | { form: Record<string, string> } | undefined;
  anonymous: boolean;
}

const queryValue = fc.oneof(
  nastyString,
  nastyNumber.map(String),
  fc.array(nastyString, { maxLength: 2 }),
);

export function fuzzRequest(route: ApiRoute): fc.Arbitrary<FuzzRequest> {
  const names = [...route.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  if (route.path.endsWith('*')) names.push('*');
  const methods = typeof route.method === 'string' ? [route.method] : [...route.method];
  const queryFields = [...fieldsOf(route.query), 'unknown'];
  const reads = methodOf(route) === 'GET';
  const body: fc.Arbitrary<FuzzRequest['body']> = route.form
    ? fc
        .dictionary(fc.constantFrom(...fieldsOf(route.form), 'avatar'), nastyString, { maxKeys: 8 })
        .map((form) => ({ form }))
    : route.body
      ? shapedLike(route.body).map((json) => ({ json }))
      : reads
        ? fc.constant(undefined)
        : fc.option(
            anyValue.map((json) => ({ json })),
            { nil: undefined },
          );
  return fc.record({
    route: fc.constant(route),
    method: fc.constantFrom(...methods),
    params: fc.record(Object.fromEntries(names.map((name) => [name, pathValue(name, route.path)]))),
    query: fc.option(fc.dictionary(fc.constantFrom(...queryFields), queryValue, { maxKeys: 3 }), {
      nil: undefined,
    }),
    body,
    // One request in five is anonymous; the rest are the admin's.
    anonymous: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  });
}

/** Text in a path: every byte escaped but the unreserved ones (lone surrogates become U+FFFD). */
function escapePath(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** The request's URL under `/api`, each parameter filled in from `resolve` or its own text. */
export function urlOf(request: FuzzRequest, resolve: (fixture: Fixture) => string): string {
  const fill = (value: PathValue | undefined, keepSlashes: boolean) => {
    if (!value) return '';
    if ('raw' in value) return value.raw;
    const text = 'fixture' in value ? resolve(value.fixture) : value.text;
    return keepSlashes ? text.split('/').map(escapePath).join('/') : escapePath(text);
  };
  const path = request.route.path
    .replace(/:([A-Za-z_]\w*)/g, (_, name: string) => fill(request.params[name], false))
    .replace(/\*$/, () => fill(request.params['*'], true));
  return `/api${path}`;
}

/** A multipart body of text fields. */
export function multipart(fields: Record<string, string>, boundary: string): string {
  return (
    Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`
  );
}
