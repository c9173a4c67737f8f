import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

/** What GET /api/help/ answers, to anyone, on a server started with `env`. */
async function helpSettings(env: Record<string, string> = {}) {
  const server = await startTestServer(env);
  servers.push(server);
  const answer = await server.app.inject({ method: 'GET', url: '/api/help/' });
  expect(answer.statusCode).toBe(200);
  return answer.json();
}

describe('GET /api/help/', () => {
  it("names the operator's help centre, or none for the help page in the product", async () => {
    expect(await helpSettings()).toEqual({ help_url: null });
    expect(await helpSettings({ HELP_URL: 'https://help.example.com/filerunner' })).toEqual({
      help_url: 'https://help.example.com/filerunner',
    });
  });
});
