/**
 * What the HTTP benches share: signing in as a seeded user, and loading one URL with autocannon
 * after a short unmeasured warm-up.
 */
import autocannon from 'autocannon';
import { CLIENT_VERSION_HEADER } from '@filerunner/protocol';
import { PASSWORD } from '../apps/server/test/harness';
import { hundredths } from './figures';

/** Logs in through the API; answers the session cookie and, when asked, a fresh API key. */
export async function signIn(
  origin: string,
  email: string,
  options: { apiKey?: boolean } = {},
): Promise<{ cookie: string; key?: string }> {
  const headers = { 'content-type': 'application/json', [CLIENT_VERSION_HEADER]: 'bench' };
  const login = await fetch(`${origin}/api/authenticate/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  if (!options.apiKey) return { cookie };
  const created = await fetch(`${origin}/api/api_keys/`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (!created.ok) throw new Error(`API key answered ${created.status}: ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  return { cookie, key };
}

export interface Figures {
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
}

/** `connections` clients calling one URL for `seconds`, after 2 s of unmeasured warm-up. */
export async function load(
  url: string,
  headers: Record<string, string>,
  run: { connections: number; seconds: number },
): Promise<Figures> {
  const options = { url, headers, connections: run.connections };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: run.seconds });
  return {
    requests_per_s: hundredths(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}
