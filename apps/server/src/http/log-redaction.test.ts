import { DrizzleQueryError } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logRedaction, redactText, redactUrl, serializeLoggedError } from './log-redaction';

const SIG = '79f483dc941e30382367615f90a9c30dcd013ca5';
const TOKEN = 'kVifkyn5lUt91gW3iOkuxeysIfKXDA6yyE_YcxoD9Wo';

describe('redactUrl', () => {
  it("replaces a TempURL's signature and keeps the rest of the URL as it came", () => {
    expect(
      redactUrl(
        `/v1/AUTH_fr/c/packages/a%20b/0?temp_url_sig=${SIG}&temp_url_expires=1795453783&temp_url_prefix=packages%2Fx%2F`,
      ),
    ).toBe(
      '/v1/AUTH_fr/c/packages/a%20b/0?temp_url_sig=[secret]&temp_url_expires=1795453783&temp_url_prefix=packages%2Fx%2F',
    );
    expect(redactUrl(`/v1/AUTH_fr/c/k?filename=a.txt&temp_url_sig=${SIG}`)).toBe(
      '/v1/AUTH_fr/c/k?filename=a.txt&temp_url_sig=[secret]',
    );
  });

  it('replaces the key of an external link and any token, whatever the case or encoding', () => {
    expect(redactUrl(`/inbox/external/abc?key=${TOKEN}`)).toBe('/inbox/external/abc?key=[secret]');
    expect(redactUrl(`/x?Token=${TOKEN}&a=1`)).toBe('/x?Token=[secret]&a=1');
    expect(redactUrl(`/v1/a/c/k?temp%5Furl%5Fsig=${SIG}`)).toBe(
      '/v1/a/c/k?temp%5Furl%5Fsig=[secret]',
    );
    expect(redactUrl('/x?key')).toBe('/x?key=[secret]');
  });

  it('replaces the token of a download path and keeps the file name', () => {
    expect(redactUrl(`/api/downloads/${TOKEN}/Secrets.tar`)).toBe(
      '/api/downloads/[secret]/Secrets.tar',
    );
    // The router matches the decoded path, so an encoded one is recognised too.
    expect(redactUrl(`/api/d%6Fwnloads/${TOKEN}/a.txt`)).toBe('/api/downloads/[secret]/a.txt');
  });

  it('replaces the token of activation and reset links and keeps the uid', () => {
    expect(redactUrl(`/activate/d5be2d92/${TOKEN}`)).toBe('/activate/d5be2d92/[secret]');
    expect(redactUrl(`/resetpassword/d5be2d92/${TOKEN}?x=1`)).toBe(
      '/resetpassword/d5be2d92/[secret]?x=1',
    );
  });

  it('leaves URLs without secrets untouched', () => {
    for (const url of [
      '/api/packages/abc/download/Brief/notes%20x.txt',
      '/api/user/activate/',
      '/activate',
      '/api/downloads/',
      '/?a=1&&b=%ZZ',
      '/v1/AUTH_fr/c/%E0%A4%A',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('redactText', () => {
  it('replaces the secrets of URLs inside a message', () => {
    expect(
      redactText(
        `Reply was already sent in the "http://h/api/downloads/${TOKEN}/a.txt" route, see http://h/v1/a/c/k?temp_url_sig=${SIG}&temp_url_expires=1 and /x?key=${TOKEN} (a link)`,
      ),
    ).toBe(
      'Reply was already sent in the "http://h/api/downloads/[secret]/a.txt" route, see http://h/v1/a/c/k?temp_url_sig=[secret]&temp_url_expires=1 and /x?key=[secret] (a link)',
    );
  });
});

/** A PostgreSQL error as both drivers hand it over: values in detail, where and params. */
function databaseError(message: string, code: string) {
  return Object.assign(new Error(message), {
    code,
    severity: 'ERROR',
    constraint: 'users_email_lower',
    table: 'users',
    detail: 'Key (lower(email))=(secret@example.com) already exists.',
    where: "SQL statement with 'secret-value'",
    internalQuery: "select 'secret-value'",
    parameters: ['secret-value'],
    params: ['secret-value'],
    queryOptions: { secret: 'secret-value' },
  });
}

describe('serializeLoggedError', () => {
  it("drops drizzle's parameters from the message, the stack and the fields", () => {
    const cause = databaseError('duplicate key value violates unique constraint "x"', '23505');
    const error = new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ['secret@example.com', 'secret-value'],
      cause,
    );
    const logged = serializeLoggedError(error);
    expect(JSON.stringify(logged)).not.toMatch(/secret/);
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)',
      query: 'insert into "users" ("email", "password_hash") values ($1, $2)',
      cause: {
        message: 'duplicate key value violates unique constraint "x"',
        code: '23505',
        constraint: 'users_email_lower',
        table: 'users',
      },
    });
    expect(logged.stack).toMatch(/^Error: Failed query: insert into .*\$2\)\n {4}at /);
  });

  it('drops the value a data exception quotes, keeping the rest of its message', () => {
    const logged = serializeLoggedError(
      databaseError('invalid input syntax for type uuid: "secret-value"', '22P02'),
    );
    expect(logged).toMatchObject({
      message: 'invalid input syntax for type uuid: "[secret]"',
      code: '22P02',
    });
    expect(JSON.stringify(logged)).not.toMatch(/secret-value/);
  });

  it('keeps what describes other errors, and ends on a cycle of causes', () => {
    const looped: Error & { cause?: unknown } = Object.assign(new Error('storage down'), {
      code: 'unavailable',
      statusCode: 503,
      headers: { 'x-auth-token': 'secret-value' },
    });
    looped.cause = looped;
    const serialized = serializeLoggedError(looped);
    expect(serialized).toMatchObject({ type: 'Error', message: 'storage down', statusCode: 503 });
    expect(JSON.stringify(serialized)).not.toMatch(/secret-value/);
    // The logger hands over whatever was logged as `err`, not only errors.
    const logged = (value: unknown) => serializeLoggedError(value as Error);
    expect(logged(`GET /api/downloads/${TOKEN}/a failed`)).toBe(
      'GET /api/downloads/[secret]/a failed',
    );
    expect(logged({ any: 'thing' })).toEqual({ any: 'thing' });
  });
});

describe('the logger options', () => {
  it('censor secret fields at the top and one level down, and URLs in messages', () => {
    const lines: string[] = [];
    const log = pino({ ...logRedaction, level: 'debug' }, { write: (line) => lines.push(line) });
    log.info({ token: 'secret-1', key: 'secret-2', body: { password: 'secret-3' } }, 'fields');
    log.warn(`Reply was already sent in the /api/downloads/${TOKEN}/a.txt route`);
    log.info({ n: 1 }, 'opened %s', `/inbox/external/x?key=${TOKEN}`);
    log.error({ err: new DrizzleQueryError('select $1', ['secret-4']) }, 'failed');
    const text = lines.join('');
    expect(text).not.toMatch(/secret-\d|kVifkyn5/);
    expect(text).toContain('/api/downloads/[secret]/a.txt');
    expect(text).toContain('opened /inbox/external/x?key=[secret]');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      token: '[secret]',
      body: { password: '[secret]' },
    });
  });
});
