import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { startTestServer, type TestServer } from '../../../test/harness';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function started(env: Record<string, string> = {}) {
  const server = await startTestServer(env);
  servers.push(server);
  return server;
}

/** What GET /api/latency/hosts/ answers, to anyone, on a server started with `env`. */
async function latencyHosts(env: Record<string, string> = {}) {
  const answer = await (
    await started(env)
  ).app.inject({ method: 'GET', url: '/api/latency/hosts/' });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

/** Starts the server as `npm start` does with `env`, and answers its exit code and error output. */
async function startFails(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const main = fileURLToPath(new URL('../../main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

describe('LATENCY_HOSTS', () => {
  it('reads groups of hosts, each host named by its host and port', () => {
    const config = loadConfig({
      LATENCY_HOSTS:
        'LON=https://lon1.example.com, https://lon2.example.com:8443/ ; LAX=http://lax.example.com;LON-LAX=https://link.example.com/edge',
    });
    expect(config.latencyGroups).toEqual([
      {
        name: 'LON',
        hosts: [
          { name: 'lon1.example.com', url: 'https://lon1.example.com' },
          { name: 'lon2.example.com:8443', url: 'https://lon2.example.com:8443' },
        ],
      },
      { name: 'LAX', hosts: [{ name: 'lax.example.com', url: 'http://lax.example.com' }] },
      {
        name: 'LON-LAX',
        hosts: [{ name: 'link.example.com', url: 'https://link.example.com/edge' }],
      },
    ]);
    expect(loadConfig({}).latencyGroups).toBeNull();
    expect(loadConfig({ LATENCY_HOSTS: ' ' }).latencyGroups).toBeNull();
  });

  it.each([
    ['LON https://lon.example.com', "'LON https://lon.example.com' is not GROUP=url,url"],
    ['=https://lon.example.com', "'=https://lon.example.com' is not GROUP=url,url"],
    ['LON=', 'the group LON lists no host'],
    ['LON=ftp://lon.example.com', "LON: 'ftp://lon.example.com' is not an http(s) URL"],
    ['LON=lon.example.com', "LON: 'lon.example.com' is not an http(s) URL"],
    ['LON=https://a.example.com;LON=https://b.example.com', 'the group LON is listed twice'],
    ['AUS=https://aus.example.com/?x=1', "AUS: 'https://aus.example.com/?x=1' must be a base URL"],
  ])('refuses %j with its reason', (value, reason) => {
    expect(() => loadConfig({ LATENCY_HOSTS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ LATENCY_HOSTS: value })).toThrow(`LATENCY_HOSTS: ${reason}`);
  });

  it('stops the server at start with the reason of a bad setting', async () => {
    const { code, stderr } = await startFails({ LATENCY_HOSTS: 'LON=ftp://lon.example.com' });
    expect(code).toBe(1);
    expect(stderr).toContain("LATENCY_HOSTS: LON: 'ftp://lon.example.com' is not an http(s) URL");
  });
});

describe('GET /api/latency/hosts/', () => {
  it('lists this server and its storage endpoint by default', async () => {
    // The embedded store answers on this server's own origin, under /v1/.
    expect(await latencyHosts()).toEqual({
      groups: [
        {
          name: 'This server',
          hosts: [
            { name: 'FileRunner', url: 'http://127.0.0.1:8080' },
            { name: 'Storage', url: 'http://127.0.0.1:8080' },
          ],
        },
      ],
    });
  });

  it('lists the configured groups, and lets the page reach their hosts', async () => {
    const server = await started({
      LATENCY_HOSTS: 'LON=https://lon.example.com;AUS=https://aus.example.com:8443',
    });
    const answer = await server.app.inject({ method: 'GET', url: '/api/latency/hosts/' });
    expect(answer.json()).toEqual({
      groups: [
        { name: 'LON', hosts: [{ name: 'lon.example.com', url: 'https://lon.example.com' }] },
        {
          name: 'AUS',
          hosts: [{ name: 'aus.example.com:8443', url: 'https://aus.example.com:8443' }],
        },
      ],
    });
    // The page is served with a content policy: fetches to hosts not in it would fail as if
    // the host were down.
    const page = await server.app.inject({ method: 'GET', url: '/debug/latency' });
    const connectSrc = String(page.headers['content-security-policy'])
      .split(';')
      .find((d) => d.trim().startsWith('connect-src'));
    expect(connectSrc).toContain('https://lon.example.com');
    expect(connectSrc).toContain('https://aus.example.com:8443');
  });
});
