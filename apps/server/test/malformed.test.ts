import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createUser, login, startTestServer, type TestServer } from './harness';

let server: TestServer;
let session: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT: '100000' });
  const user = await createUser(server, { contract: true, admin: true, send: true });
  session = await login(server, user.email);
});
afterAll(() => server.close());

const CALLS: [string, string][] = [
  ['POST', '/api/authenticate/'],
  ['POST', '/api/user/'],
  ['POST', '/api/user/update_settings/'],
  ['POST', '/api/user/update_password/'],
  ['POST', '/api/user/forgot_password/'],
  ['POST', '/api/user/reset_password_check/'],
  ['POST', '/api/user/reset_password/'],
  ['POST', '/api/user/activation_token_check/'],
  ['POST', '/api/user/activate/'],
  ['POST', '/api/api_keys/'],
  ['POST', '/api/api_keys/00000000-0000-0000-0000-000000000000/'],
  ['GET', '/api/user/avatar/not-a-uid/'],
  ['POST', '/api/packages/create/'],
  ['POST', '/api/packages/no-such-package/bulk/'],
  ['POST', '/api/packages/no-contract/no-package/updatefiles/'],
];

const FIELDS = [
  'email',
  'password',
  'uid',
  'token',
  'name',
  'mobile',
  'password_confirm',
  'password_current',
  'password_new',
  'password_new_confirm',
  'show_select_storage',
  'first_name',
  'last_name',
  'contract',
  'recipients',
  'intended_files',
  'expected_files',
  'expected_size',
  'valid_from',
  'valid_to',
  'pin_verify',
  'storage_app_group',
];

/** Any JSON value, plus objects using the real field names with values of every type. */
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue()),
  fc.dictionary(fc.constantFrom(...FIELDS), fc.string({ maxLength: 3000 })),
);

describe('malformed requests', () => {
  it('never get a 500 from any accounts, API-key or send call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CALLS),
        body,
        fc.boolean(),
        async ([method, url], payload, withSession) => {
          const response = await server.app.inject({
            method: method as 'POST',
            url,
            headers: {
              ...(withSession ? session : { 'x-client-version': 't' }),
              'content-type': 'application/json',
            },
            payload: JSON.stringify(payload),
          });
          expect(
            response.statusCode,
            `${method} ${url} ${JSON.stringify(payload).slice(0, 200)}: ${response.body}`,
          ).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers broken JSON, wrong content types and bad forms with 4xx', async () => {
    for (const [method, url] of CALLS) {
      for (const [type, payload] of [
        ['application/json', '{"email": '],
        ['text/plain', 'hello'],
        ['multipart/form-data; boundary=x', '--x\r\nbroken'],
        ['application/x-www-form-urlencoded', 'a=b'],
      ] as const) {
        const response = await server.app.inject({
          method: method as 'POST',
          url,
          headers: { ...session, 'content-type': type },
          payload,
        });
        expect(response.statusCode, `${url} ${type}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${url} ${type}: ${response.body}`).toBeLessThan(500);
      }
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/nothing-here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
  });
});
