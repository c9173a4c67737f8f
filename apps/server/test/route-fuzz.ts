import fc from 'fast-check';
import type { z } from 'zod';
import { api, methodOf, type ApiRoute, type HttpMethod } from '@filerunner/protocol';

/**
 * Random requests for any call of the route table, for the fuzz that asserts no request makes
 * the server fail. Values lean on what broke it before: NUL characters (PostgreSQL text cannot
 * hold them), numbers past the database's integer, lone surrogates, '..' and very long text.
 */

/** Names a real row of the test's fixtures, resolved when the request is made. */
export type Fixture = 'contract' | 'package' | 'group' | 'member' | 'uid' | 'apiKey';

const NASTY_STRINGS = [
  '',
  // Half a surrogate pair in text that is otherwise fine (a name cut mid-emoji).
  'Fuzzed \uD83D',
  'x\uDE00.txt',
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
  'Team \uD83D',
  '\uDFFF\uD800',
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

/** Text with half a surrogate pair: JSON can carry it, PostgreSQL's jsonb cannot. */
const loneSurrogate: fc.Arbitrary<string> = fc
  .tuple(plausibleText(), fc.integer({ min: 0xd800, max: 0xdfff }))
  .map(([text, unit]) => text + String.fromCharCode(unit));

function plausibleText(): fc.Arbitrary<string> {
  return fc.constantFrom('Fuzzed', 'x.txt', 'Team ');
}

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
 * How wild a shaped value is. `wild`: leaves of every type, often the nasty ones, and now and
 * then any node replaced by any value. `gentle`: values a call would accept but for one leaf,
 * which is nasty, so that one bad value among good ones reaches the deeper checks, the handler
 * and the query (a body with many fields, each wild, rarely gets past validation).
 */
type Wildness = 'wild' | 'gentle';

/**
 * A value shaped like the schema: its objects' real field names, its arrays, its enums, with
 * leaves as wild as asked.
 */
export function shapedLike(schema: z.ZodType, wildness: Wildness = 'wild'): fc.Arbitrary<unknown> {
  if (wildness === 'gentle') return shapedNode(schema, 'clean', '').chain(withOneNastyLeaf);
  return shapedField(schema, 'wild', '');
}

/** `clean`: what `gentle` starts from, values a call would accept. */
type Leaves = 'wild' | 'clean';

function shapedField(schema: z.ZodType, leaves: Leaves, name: string): fc.Arbitrary<unknown> {
  if (leaves === 'clean') return shapedNode(schema, leaves, name);
  return fc.oneof(
    { arbitrary: shapedNode(schema, leaves, name), weight: 9 },
    { arbitrary: anyValue, weight: 1 },
  );
}

/** The value with one of its string or number leaves (if it has any) made nasty. */
function withOneNastyLeaf(value: unknown): fc.Arbitrary<unknown> {
  const leaves: (string | number)[][] = [];
  const walk = (node: unknown, path: (string | number)[]) => {
    if (typeof node === 'string' || typeof node === 'number') leaves.push(path);
    else if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...path, i]));
    else if (node && typeof node === 'object')
      for (const [key, item] of Object.entries(node)) walk(item, [...path, key]);
  };
  walk(value, []);
  if (leaves.length === 0) return fc.constant(value);
  return fc
    .tuple(fc.constantFrom(...leaves), fc.oneof(loneSurrogate, nastyString, nastyNumber))
    .map(([path, nasty]) => {
      const copy = structuredClone(value);
      if (path.length === 0) return nasty;
      let node = copy as Record<string | number, unknown>;
      for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
      const last = path[path.length - 1]!;
      // A string stays a string (its text is what is nasty) more often than it turns number.
      node[last] =
        typeof node[last] === 'string' && typeof nasty === 'number' ? String(nasty) : nasty;
      return copy;
    });
}

/** `name` is the field's: an email field gets an address, so its neighbours are reached. */
function shapedNode(schema: z.ZodType, leaves: Leaves, name: string): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const clean = leaves === 'clean';
  const leaf = <T>(good: fc.Arbitrary<T>, nasty: fc.Arbitrary<T>) =>
    clean ? good : fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: nasty, weight: 1 });
  switch (def.type) {
    case 'object': {
      const fields = Object.fromEntries(
        Object.entries(def.shape!).map(([field, type]) => [
          field,
          shapedField(type, leaves, field),
        ]),
      );
      const required = Object.entries(def.shape!)
        .filter(([, field]) => !['optional', 'default'].includes(defOf(field).type))
        .map(([field]) => field);
      // Optional fields are often left out, so a bad value meets fewer others that fail first.
      if (clean) return fc.record(fields, { requiredKeys: required });
      return fc.oneof(
        { arbitrary: fc.record(fields), weight: 2 },
        { arbitrary: fc.record(fields, { requiredKeys: required }), weight: 2 },
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
      return fc.array(shapedField(def.element!, leaves, name), { maxLength: clean ? 2 : 3 });
    case 'union':
      return fc.oneof(...def.options!.map((option) => shapedField(option, leaves, name)));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return shapedField(def.innerType!, leaves, name);
    case 'pipe':
      return shapedField(def.in!, leaves, name);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'literal':
      return fc.constantFrom(...def.values!);
    case 'string':
      return leaf(
        /email/.test(name) ? fc.constant('someone@example.com') : plausibleString,
        nastyString,
      );
    case 'number':
      return leaf(clean ? fc.integer({ min: 1, max: 10 }) : plausibleNumber, nastyNumber);
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
  /**
   * Who calls: nobody, the contract's admin (who also sent the fixture package), or the
   * package's recipient, on the calls a recipient makes.
   */
  caller: Caller;
}

export type Caller = 'anonymous' | 'admin' | 'recipient';

/** The calls a recipient makes, whose handlers only a recipient reaches. */
const RECIPIENT_AREAS = [api.inbox, api.downloads, api.pin].flatMap((area) =>
  Object.values(area as Record<string, ApiRoute>),
);

const queryValue = fc.oneof(
  nastyString,
  nastyNumber.map(String),
  fc.array(nastyString, { maxLength: 2 }),
);

/**
 * A request for the call: half of them wild everywhere, half aimed past the first checks (real
 * rows in the path, a signed-in caller, no stray query, a gentle body), where one bad value
 * reaches the handler and its queries.
 */
export function fuzzRequest(route: ApiRoute): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(requestOf(route, 'wild'), requestOf(route, 'gentle'));
}

function requestOf(route: ApiRoute, wildness: Wildness): fc.Arbitrary<FuzzRequest> {
  const gentle = wildness === 'gentle';
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
      ? shapedLike(route.body, wildness).map((json) => ({ json }))
      : reads
        ? fc.constant(undefined)
        : fc.option(
            anyValue.map((json) => ({ json })),
            { nil: undefined },
          );
  const param = (name: string) => {
    const fixtures = fixturesFor(name, route.path);
    return gentle && fixtures.length
      ? fc.constantFrom(...fixtures).map((fixture): PathValue => ({ fixture }))
      : pathValue(name, route.path);
  };
  const query = fc.dictionary(fc.constantFrom(...queryFields), queryValue, { maxKeys: 3 });
  return fc.record({
    route: fc.constant(route),
    method: fc.constantFrom(...methods),
    params: fc.record(Object.fromEntries(names.map((name) => [name, param(name)]))),
    query: gentle ? fc.constant(undefined) : fc.option(query, { nil: undefined }),
    body,
    // A wild request is anonymous one time in five; the rest are the admin's, or on a
    // recipient's call, the admin's or the recipient's.
    caller: fc.integer({ min: gentle ? 1 : 0, max: 4 }).map((n): Caller => {
      if (n === 0) return 'anonymous';
      return n >= 3 && RECIPIENT_AREAS.includes(route) ? 'recipient' : 'admin';
    }),
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
