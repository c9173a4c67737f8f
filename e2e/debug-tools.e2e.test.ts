import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startProduct, stopProduct, type RunningServer } from './harness';
import { folderToPick, freshPage, see } from './pages';

// The support tools a person opens without signing in: the latency page against real servers
// (one answering at once, one answering slowly, one stopped), and the file-name tester writing
// into a folder of the page's origin-private file system, which stands in for the person's disk.

/** A tiny server that answers /healthcheck after `delayMs`, counting the GETs it answered. */
async function healthServer(
  delayMs: number,
): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/healthcheck') {
      response.writeHead(404).end();
      return;
    }
    hits++;
    setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, hits: () => hits, server };
}

let fast: Awaited<ReturnType<typeof healthServer>>;
let slow: Awaited<ReturnType<typeof healthServer>>;
/** A port nothing listens on: a server that was stopped. */
let stoppedUrl: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  fast = await healthServer(0);
  slow = await healthServer(150);
  const stopped = await healthServer(0);
  stoppedUrl = stopped.url;
  await new Promise((resolve) => stopped.server.close(resolve));
  ({ server, browser } = await startProduct({
    LATENCY_HOSTS: `LON=${fast.url},${stoppedUrl};LAX=${slow.url};AUS=${stoppedUrl}`,
  }));
});

afterAll(async () => {
  await stopProduct({ server, browser });
  await Promise.all([fast, slow].map(({ server }) => new Promise((r) => server.close(r))));
});

const hostName = (url: string) => new URL(url).host;
const group = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const bars = (page: Page) => page.getByTestId('latency-chart').locator('.MuiBarChart-element');
/** The fill colours of the chart's bars, top to bottom. */
const barColours = (page: Page) =>
  bars(page).evaluateAll((elements) =>
    elements
      .map((e) => ({ y: e.getBoundingClientRect().y, fill: getComputedStyle(e).fill }))
      .sort((a, b) => a.y - b.y)
      .map((e) => e.fill),
  );

const GREY = 'rgb(158, 158, 158)';
/** Green under 100 ms, amber under 400 ms, red above. */
const colourOf = (ms: number) =>
  ms < 100 ? 'rgb(46, 125, 50)' : ms < 400 ? 'rgb(237, 108, 2)' : 'rgb(211, 47, 47)';

describe('the latency page', () => {
  it('shows each region with its servers: bars, No response, Offline', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/debug/latency`);
    await page.getByRole('heading', { name: 'Latency', level: 1 }).waitFor();

    const lon = group(page, 'LON');
    const fastRow = lon.getByRole('listitem').filter({ hasText: hostName(fast.url) });
    await expect.poll(() => fastRow.getByTestId('host-latency').innerText()).toMatch(/^\d+ ms$/);
    const stoppedRow = lon.getByRole('listitem').filter({ hasText: hostName(stoppedUrl) });
    await expect.poll(() => stoppedRow.getByTestId('host-latency').innerText()).toBe('No response');
    // One server of LON answered: the region is up, as fast as that server.
    await expect.poll(() => lon.innerText()).toMatch(/LON\s+\d+ ms/);
    expect(await lon.getByText('Offline').count()).toBe(0);

    const aus = group(page, 'AUS');
    await aus.getByText('Offline', { exact: true }).waitFor();
    await expect.poll(() => aus.getByTestId('host-latency').innerText()).toBe('No response');

    const lax = group(page, 'LAX');
    await expect.poll(() => lax.getByTestId('host-latency').innerText()).toMatch(/^\d+ ms$/);
    const laxMs = Number((await lax.getByTestId('host-latency').innerText()).split(' ')[0]);
    expect(laxMs).toBeGreaterThanOrEqual(150);

    // A bar per region, coloured by its latency (LON's server answers at once, LAX's after
    // 150 ms: on a busy machine either may be slower); AUS had no response.
    const lonMs = Number((await fastRow.getByTestId('host-latency').innerText()).split(' ')[0]);
    await expect.poll(() => barColours(page)).toEqual([colourOf(lonMs), colourOf(laxMs), GREY]);
    // The axis reaches at least 200 ms, more when the slowest server needs it.
    const axis = page.getByTestId('latency-chart').locator('.MuiChartsAxis-directionX');
    await expect.poll(() => axis.evaluate((g) => g.textContent)).toMatch(/200/);

    // A bar per server: LON's two, LAX's, AUS's.
    await page.getByRole('button', { name: 'Servers' }).click();
    await expect
      .poll(() => barColours(page))
      .toEqual([colourOf(lonMs), GREY, colourOf(laxMs), GREY]);
    await page.close();
  });

  it('measures again on Refresh', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/debug/latency`);
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await expect.poll(() => refresh.isEnabled()).toBe(true);
    const before = fast.hits();
    expect(before).toBeGreaterThan(0);
    await refresh.click();
    await expect.poll(() => refresh.isEnabled()).toBe(true);
    // Five GETs a host each time.
    expect(fast.hits()).toBe(before + 5);
    await group(page, 'AUS').getByText('Offline', { exact: true }).waitFor();
    await expect.poll(async () => (await barColours(page)).length).toBe(3);
    await page.close();
  });

  it("copies a server's URL, saying Copied for 2 seconds", async () => {
    const page = await freshPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.url,
    });
    await page.goto(`${server.url}/debug/latency`);
    const lax = group(page, 'LAX');
    await lax.getByRole('button', { name: `Copy the URL of ${hostName(slow.url)}` }).click();
    const copied = lax.getByRole('status').filter({ hasText: 'Copied' });
    await copied.waitFor();
    const shownAt = Date.now();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(slow.url);
    await copied.waitFor({ state: 'hidden', timeout: 5000 });
    expect(Date.now() - shownAt).toBeGreaterThan(1500);
    await page.close();
  });
});

/** The results listed, top (newest) first, as 'name | Allowed' or 'name | Invalid | reasons'. */
const results = (page: Page) =>
  page
    .getByTestId('fs-results')
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) =>
        (item as HTMLElement).innerText
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      ),
    );

/** What is in the page's origin-private folder `folder` (the tester must leave nothing). */
const folderContents = (page: Page, folder: string) =>
  page.evaluate(async (folder) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(folder);
    const names: string[] = [];
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) {
      names.push(name);
    }
    return names;
  }, folder);

async function testName(page: Page, name: string) {
  await page.getByRole('textbox', { name: 'File name' }).fill(name);
  await page.getByRole('button', { name: 'Test', exact: true }).click();
}

describe('the file-system access check', () => {
  it('asks for a folder first, and says when selecting one failed', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/debug/fs-access-check`);
    await see(page, 'No directory selected');
    expect(await page.getByRole('button', { name: 'Test', exact: true }).isDisabled()).toBe(true);

    await page.evaluate(() =>
      Object.assign(window, {
        showDirectoryPicker: async () => {
          throw new DOMException('The folder cannot be opened', 'NotAllowedError');
        },
      }),
    );
    await page.getByRole('button', { name: 'Select directory' }).click();
    await see(page, 'Failed to select directory');
    await see(page, 'No directory selected');
    await page.close();
  });

  it('tests typed, dropped and picked names against the constraints and the folder', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/debug/fs-access-check`);
    await folderToPick(page, 'checks', []);
    await page.getByRole('button', { name: 'Select directory' }).click();
    await see(page, 'Directory: checks');

    // A blank name is not tested.
    await testName(page, '   ');
    await see(page, 'Enter a file name');

    await testName(page, 'Quarterly report.pdf');
    await expect.poll(() => results(page)).toEqual([['Allowed', 'Quarterly report.pdf']]);
    // Really written, then removed again.
    expect(await folderContents(page, 'checks')).toEqual([]);

    const long = `${'a'.repeat(252)}.txt`;
    await testName(page, long);
    await expect
      .poll(async () => (await results(page))[0])
      .toEqual(['Invalid', long, 'Filename exceeds maximum length of 255 characters']);

    await testName(page, 'report?.txt');
    await expect
      .poll(async () => (await results(page))[0])
      .toEqual(['Invalid', 'report?.txt', 'Filename contains invalid characters or patterns']);

    await testName(page, 'Shoot/Day 1:2/A001.mov');
    await expect
      .poll(async () => (await results(page))[0])
      .toEqual([
        'Invalid',
        'Shoot/Day 1:2/A001.mov',
        'Invalid path segment "Day 1:2": Filename contains invalid characters or patterns',
      ]);

    // A name the file system itself refuses (a path separator of another system in it).
    await testName(page, 'back\\slash.txt');
    await expect
      .poll(async () => (await results(page))[0]?.slice(0, 2))
      .toEqual(['Invalid', 'back\\slash.txt']);
    const refused = (await results(page))[0]!;
    expect(refused).toContain('Filename contains invalid characters or patterns');
    expect(refused.some((line) => line.startsWith('This folder refused "back\\slash.txt"'))).toBe(
      true,
    );

    // A dropped file is tested by its name.
    await page.getByTestId('fs-drop-area').evaluate((area) => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'dropped <draft>.txt'));
      area.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true }));
    });
    await expect
      .poll(async () => (await results(page))[0])
      .toEqual([
        'Invalid',
        'dropped <draft>.txt',
        'Filename contains invalid characters or patterns',
      ]);

    // Picked files too.
    await page
      .getByLabel('Files to test')
      .setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('n') }]);
    await expect.poll(async () => (await results(page))[0]).toEqual(['Allowed', 'notes.txt']);
    expect(await folderContents(page, 'checks')).toEqual([]);
    await page.close();
  });

  it('shows the newest 20 results', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/debug/fs-access-check`);
    await folderToPick(page, 'many', []);
    await page.getByRole('button', { name: 'Select directory' }).click();
    await see(page, 'Directory: many');

    await page.getByLabel('Files to test').setInputFiles(
      Array.from({ length: 25 }, (_, i) => ({
        name: `file-${i + 1}.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from('x'),
      })),
    );
    await expect.poll(async () => (await results(page)).length).toBe(20);
    await testName(page, 'latest.txt');
    await expect.poll(async () => (await results(page))[0]).toEqual(['Allowed', 'latest.txt']);
    const shown = await results(page);
    expect(shown).toHaveLength(20);
    // The oldest went first: file-1.txt was tested first, and is gone.
    expect(shown.map((r) => r[1])).not.toContain('file-1.txt');
    expect(shown.at(-1)).toEqual(['Allowed', 'file-2.txt']);
    await page.close();
  });
});
