import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, productOfFile } from './harness';
import { logIn } from './pages';
import { answerPickerWith, readPicked } from './picked-folder';
import { sendDemoPackage } from './sent-package';

// The sender's own copy from the Sent detail, in Chromium: Download All unpacks the package
// into a picked folder through the engine, a file lands whole, the options menu still offers
// the browser's own download, and none of it shows as a recipient's download.

const SENDER = 'sender@example.com';
const RITA = 'recipient@example.com';
const product = productOfFile();

const files = [
  { path: 'Cut/edl.txt', bytes: Buffer.from('001  AX  V  C  00:00:00:00\n') },
  { path: 'Cut/ref.mov', bytes: Buffer.alloc(300_000, 5) },
];

beforeAll(async () => {
  await sendDemoPackage(product.server.url, {
    sender: SENDER,
    recipients: [RITA],
    name: 'Locked cut',
    message: 'Picture lock',
    files,
  });
});

describe("the sender's own copy", () => {
  it('unpacks into a folder, saves a file, and goes by the browser from the menu', async () => {
    const context = await product.browser.newContext({ acceptDownloads: true });
    await answerPickerWith(context, 'My copy');
    const page = await context.newPage();
    await logIn(page, product.server.url, SENDER, DEMO_PASSWORD);
    await page.goto(`${product.server.url}/sent`);
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Locked cut' }).waitFor();

    await detail.getByRole('button', { name: 'Download All' }).click();
    await page.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
    const ring = page.getByRole('button', { name: /^Download queue:/ });
    await expect
      .poll(() => ring.getAttribute('aria-label'), { timeout: 60_000 })
      .toBe('Download queue: 1 download, 100%');
    for (const file of files) {
      expect((await readPicked(page, 'My copy', file.path))?.equals(file.bytes), file.path).toBe(
        true,
      );
    }

    await detail.getByRole('button', { name: 'Download Cut/edl.txt' }).click();
    await expect
      .poll(() => ring.getAttribute('aria-label'), { timeout: 60_000 })
      .toBe('Download queue: 2 downloads, 100%');
    expect((await readPicked(page, 'My copy', 'edl.txt'))?.equals(files[0]!.bytes)).toBe(true);

    await detail.getByRole('button', { name: 'Download All' }).click();
    const [whole] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Standard browser download' }).click(),
    ]);
    expect(whole.suggestedFilename()).toBe('Locked cut.tar');
    const tar = await readFile((await whole.path())!);
    for (const file of files) expect(tar.includes(file.bytes)).toBe(true);

    // The recipients' download history is theirs: Rita has downloaded nothing.
    const rita = detail.getByRole('listitem', { name: 'Rita Recipient' });
    expect(await rita.getByTestId('download-status').innerText()).toBe('Not downloaded');
    await context.close();
  });
});
