import { afterAll, beforeAll, describe } from 'vitest';
import { api, createRouteClient } from '@filerunner/protocol';
import { FetchHttpClient, keepingSessionCookie } from '@filerunner/transfer/node';
import { contractFixture, PASSWORD, startTestServer, type TestServer } from './harness';
import {
  routeClientContract,
  startFaultProxy,
  type ContractSubject,
} from './route-client-contract';
import { outcomeOf, routeNamed } from './route-calls';

// The route client's suite through Node's HttpClient (fetch, node:http for bodies of bytes),
// against a listening server behind a proxy that injects faults.

let server: TestServer;
let subject: ContractSubject;

beforeAll(async () => {
  server = await startTestServer();
  const origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const { sender } = await contractFixture(server);
  const proxy = await startFaultProxy(origin);
  const http = keepingSessionCookie(new FetchHttpClient());
  const client = (timeoutMs?: number) =>
    createRouteClient({
      http,
      baseUrl: `${proxy.url}/api`,
      clientVersion: 'test',
      random: () => 0,
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  await client().call(api.accounts.authenticate, {
    body: { email: sender.user.email, password: PASSWORD },
  });
  subject = {
    proxy,
    call: (name, args, options = {}) =>
      outcomeOf(client(options.timeoutMs).call(routeNamed(name), args as never)),
  };
});

afterAll(async () => {
  await subject?.proxy.close();
  await server?.close();
});

describe("the route client through Node's HttpClient", () => {
  routeClientContract(() => subject);
});
