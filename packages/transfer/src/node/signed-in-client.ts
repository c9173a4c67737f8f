import { api, createRouteClient, type RouteClient } from '@filerunner/protocol';
import type { HttpClient } from '../core/ports';
import { FetchHttpClient } from './fetch-http-client';

/**
 * An HttpClient that keeps the session cookie the server sets and sends it back, as a browser
 * does. For a Node caller that signs in with a password (tests, benches); the CLI uses an API key.
 */
export function keepingSessionCookie(
  http: HttpClient = new FetchHttpClient(),
): HttpClient & { readonly cookie: string | undefined } {
  let cookie: string | undefined;
  return {
    /** The session cookie (`name=value`) once the server has set one: for tools that need it. */
    get cookie() {
      return cookie;
    },
    async request(request) {
      const headers = cookie ? { ...request.headers, cookie } : request.headers;
      const answer = await http.request({ ...request, headers });
      cookie = answer.header('set-cookie')?.split(';')[0] ?? cookie;
      return answer;
    },
  };
}

/**
 * The API of the FileRunner at `origin` as `email` calls it once signed in with `password`: the
 * route client over a client that keeps the session cookie. A refused sign-in throws its ApiError.
 */
export async function signedInClient(
  origin: string,
  email: string,
  password: string,
  clientVersion: string,
): Promise<RouteClient> {
  const client = createRouteClient({
    http: keepingSessionCookie(),
    baseUrl: `${origin}/api`,
    clientVersion,
  });
  await client.call(api.accounts.authenticate, { body: { email, password } });
  return client;
}
