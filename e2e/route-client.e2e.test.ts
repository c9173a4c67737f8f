import { afterAll, beforeAll, describe } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  routeClientContract,
  startFaultProxy,
  type ContractSubject,
  type FaultProxy,
} from '../apps/server/test/route-client-contract';
import {
  DEMO_PASSWORD,
  launchBrowser,
  prepareSite,
  startServer,
  type RunningServer,
} from './harness';
import { buildLab, openLab } from './transfer-browser/lab-harness';

// The route client's suite in Chromium, through the browser's HttpClients: the transfer engine's
// XHR client and the web app's fetch client. The lab page is the site's web app, opened through a
// proxy that injects faults, so page, API and proxy share one origin.

let server: RunningServer;
let browser: Browser;
let proxy: FaultProxy;
let page: Page;

beforeAll(async () => {
  const site = await prepareSite({ WEB_DIST: await buildLab() });
  server = await startServer(site);
  browser = await launchBrowser();
  proxy = await startFaultProxy(server.url);
  page = await openLab(browser, proxy.url);
  await page.evaluate(
    (password) =>
      window.lab.api.call(window.lab.routes.accounts.authenticate, {
        body: { email: 'sender@example.com', password },
      }),
    DEMO_PASSWORD,
  );
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.stop();
});

for (const over of ['xhr', 'fetch'] as const) {
  describe(`the route client in the browser, over ${over === 'xhr' ? 'XHR' : 'fetch'}`, () => {
    const subject: () => ContractSubject = () => ({
      proxy,
      call: (name, args, options = {}) =>
        page.evaluate(([o, n, a, t]) => window.lab.contractCall(o, n, a, t), [
          over,
          name,
          args,
          options.timeoutMs,
        ] as const),
    });
    routeClientContract(subject);
  });
}
