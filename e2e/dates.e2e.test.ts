import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  planUpload,
  nodeUploadPorts,
  UploadRunner,
  type ByteSource,
} from '@filerunner/transfer/node';
import { api, formatDateTime, wallClockOf } from '@filerunner/protocol';
import { apiLogin, DEMO_PASSWORD, productOfFile } from './harness';
import { logIn, see, signedIn } from './pages';

// Dates and times as a person reads them: how long a package has left, counted down (never
// rounded up), read with the page's own clock moved to the moments that matter; and every date
// in the time zone the person chose, not the browser's.

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
  const page = await signedIn(product, RITA);
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

describe("dates in the person's time zone", () => {
  it('shows every date in the zone chosen in the profile, not in the browser’s', async () => {
    const end = new Date(Math.floor((Date.now() + 3 * 86_400_000) / 60_000) * 60_000);
    const slug = await sendToRita('Zoned dailies', end);
    // A browser in Tokyo; the sender lives by New York's clock.
    const context = await product.browser.newContext({
      viewport: { width: 1440, height: 900 },
      timezoneId: 'Asia/Tokyo',
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);

    // Before choosing, the browser's zone.
    await page.goto(`${product.server.url}/sent/${slug}`);
    await see(page, formatDateTime(end, 'Asia/Tokyo'));

    await page.goto(`${product.server.url}/profile`);
    await see(page, "None chosen: dates are shown in your browser's time zone (Asia/Tokyo).");
    await page.getByRole('combobox', { name: 'Timezone' }).fill('America/New_Yo');
    await page.getByRole('option', { name: 'America/New_York' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Profile updated successfully');

    // Sent: the package's dates, and its recipients' download history, in New York's time.
    await page.goto(`${product.server.url}/sent/${slug}`);
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByText(formatDateTime(end, 'America/New_York')).first().waitFor();
    expect(await detail.getByText(formatDateTime(end, 'Asia/Tokyo')).count()).toBe(0);

    // Share: the access period's pickers read New York's clock.
    await page.goto(`${product.server.url}/share`);
    const ny = (at: Date) => {
      const w = wallClockOf(at, 'America/New_York');
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
    };
    const before = new Date();
    const startDate = await page.getByLabel('Start date').inputValue();
    expect([ny(before), ny(new Date())]).toContain(startDate);
    const slot = (at: Date) => {
      const w = wallClockOf(at, 'America/New_York');
      const minute = w.minute - (w.minute % 30);
      return `${w.hour % 12 || 12}:${String(minute).padStart(2, '0')} ${w.hour < 12 ? 'AM' : 'PM'}`;
    };
    const startTime = await page.getByRole('combobox', { name: 'Start time' }).innerText();
    expect([slot(before), slot(new Date())]).toContain(startTime.trim());
    await context.close();
  });
});
