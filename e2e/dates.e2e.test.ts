import { describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  planUpload,
  nodeUploadPorts,
  UploadRunner,
  type ByteSource,
} from '@filerunner/transfer/node';
import { api } from '@filerunner/protocol';
import { apiLogin, DEMO_PASSWORD, productOfFile } from './harness';
import { freshPage, logIn, see } from './pages';

// Dates and times as a person reads them: how long a package has left, counted down (never
// rounded up), read with the page's own clock moved to the moments that matter.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';

const product = productOfFile();

/** The session cookie of a person logged in through the API, for the upload engine's calls. */
async function sessionCookie(email: string): Promise<string> {
  const login = await fetch(`${product.server.url}/api/authenticate/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-version': 'e2e' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`login of ${email} failed (${login.status})`);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

/** The sender sends one small file to Rita with the upload engine, available until `validTo`. */
async function sendToRita(name: string, validTo: Date): Promise<string> {
  const sender = await apiLogin(product.server.url, SENDER, DEMO_PASSWORD);
  const groups = await sender.call(api.recipients.list, { params: { slug: 'demo' } });
  const rita = groups.flatMap((g) => g.members).find((m) => m.email === RITA)!.id;
  const bytes = Buffer.from('the final cut\n');
  const source: ByteSource = {
    path: 'cut.txt',
    size: bytes.length,
    lastModified: 1_700_000_000_000,
    slice: (start, end) => new Blob([new Uint8Array(bytes.subarray(start, end))]),
  };
  const runner = new UploadRunner(
    {
      api: {
        baseUrl: `${product.server.url}/api`,
        headers: { cookie: await sessionCookie(SENDER), 'x-client-version': 'e2e' },
      },
      plan: planUpload([source]),
      package: {
        create: {
          contract: 'demo',
          name,
          recipients: [{ id: rita }],
          valid_from: new Date().toISOString(),
          valid_to: validTo.toISOString(),
        },
      },
    },
    nodeUploadPorts(),
  );
  const record = await runner.start();
  if (record.status !== 'COMPLETED') throw new Error(`the upload ended ${record.status}`);
  return runner.package!.slug;
}

/** Rita's Inbox with the package open, the page's clock standing at `at`. */
async function ritaSees(slug: string, at: Date): Promise<Page> {
  const page = await freshPage(product.browser);
  await logIn(page, product.server.url, RITA, DEMO_PASSWORD);
  await page.clock.setFixedTime(at);
  await page.goto(`${product.server.url}/inbox/${slug}`);
  return page;
}

describe('how long a package has left', () => {
  it('counts minutes under an hour, and is not an hour ago 24 s after the end', async () => {
    const end = new Date(Date.now() + 30 * 60_000);
    const slug = await sendToRita('Nearly due', end);

    // 19 minutes and a half left: 19 minutes, not "1 hour".
    let page = await ritaSees(slug, new Date(end.getTime() - (19 * 60_000 + 30_000)));
    await see(page, 'Expires in 19 minutes');
    await page.context().close();

    page = await ritaSees(slug, new Date(end.getTime() - 2 * 3_600_000 - 60_000));
    await see(page, /Expires in 2 hours/);
    await page.context().close();

    // 24 seconds after the end.
    page = await ritaSees(slug, new Date(end.getTime() + 24_000));
    await see(page, 'Expired less than a minute ago');
    await page.context().close();
  });
});
