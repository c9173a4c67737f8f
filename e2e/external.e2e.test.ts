import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { changeDemoSettings, productOfFile } from './harness';
import { sendToPartnerWithPin, sha256, textCount, textedPin } from './external-package';
import { answerPickerWith, readPicked } from './picked-folder';
import { freshPage, see } from './pages';

// An outsider with no account: the demo sender sends a package to an ad-hoc address with a PIN;
// the outsider opens the mailed link, asks for the PIN, types the code the text message carried
// (captured in DATA_DIR/sms) and downloads. The server is the real one, as `npm start` runs it.

let scratch: string;
/** The mailed link of the package sent in beforeAll, and the bytes of its files by path. */
let link: string;
let sentFiles: Record<string, string>;

const product = productOfFile();

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'filerunner-external-'));
  await changeDemoSettings(product.server.url, { can_add_ad_hoc: true, pin_verification: 'adhoc' });
  ({ link, sentFiles } = await sendToPartnerWithPin(
    product.site,
    product.server,
    product.browser,
    'Grade for review',
  ));
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Download All by the browser's own download (the options menu); what the browser saved. */
async function browserDownloadAll(page: Page) {
  await page.getByRole('button', { name: 'Download All' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Standard browser download' }).click(),
  ]);
  const saved = path.join(scratch, `${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(saved);
  return { name: download.suggestedFilename(), saved, bytes: await readFile(saved) };
}

describe('the external package page', () => {
  it('opens by the mailed link, unlocks with the texted PIN, and downloads the right bytes', async () => {
    const page = await freshPage(product.browser);
    await page.goto(link);

    // What the outsider reads before any PIN: the package, who sent it, and that it is locked.
    await page.getByRole('heading', { name: 'Grade for review' }).waitFor();
    await see(page, 'From Sam Sender');
    await see(page, 'Project Demo Contract');
    await see(page, 'The second pass of the grade.');
    await see(page, /Expires in \d+ (day|hour)s?/);
    const downloadAll = page.getByRole('button', { name: 'Download All' });
    expect(await downloadAll.isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Unlock with PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'PIN verification' });
    await dialog.getByText(/ending in 123/).waitFor();
    const before = await textCount(product.site);
    await dialog.getByRole('button', { name: 'Send PIN' }).click();
    await dialog.getByText(/We sent a PIN by text message/).waitFor();
    const pin = await textedPin(product.site, before);

    // A wrong code first (one digit off): refused with the spec's words, the dialog stays.
    const wrong = pin.slice(0, 5) + ((Number(pin[5]) + 1) % 10);
    await dialog.getByRole('textbox', { name: 'PIN digit 1' }).click();
    await page.keyboard.type(wrong);
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await dialog.getByText('Sorry the PIN entered is not valid').waitFor();

    // The right one typed over it: each digit moves on to the next input by itself, also
    // where the input already holds that digit.
    await dialog.getByRole('textbox', { name: 'PIN digit 1' }).click();
    await page.keyboard.type(pin);
    expect(
      await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          dialog.getByRole('textbox', { name: `PIN digit ${n}` }).inputValue(),
        ),
      ),
    ).toEqual(pin.split(''));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await see(page, 'PIN verified: you can download the files now.');
    await expect.poll(() => downloadAll.isDisabled()).toBe(false);

    // One file, through the engine into the folder picked at the click; the page's own
    // transfer panel shows it once there is a download.
    await answerPickerWith(page, 'From the link');
    await page.getByRole('button', { name: 'Download Grade/notes.txt' }).click();
    const ring = page.getByRole('button', { name: /^Download queue:/ });
    await expect
      .poll(() => ring.getAttribute('aria-label'), { timeout: 30_000 })
      .toBe('Download queue: 1 download, 100%');
    const single = await readPicked(page, 'From the link', 'notes.txt');
    expect(single && sha256(single)).toBe(sentFiles['Grade/notes.txt']);

    // The whole package as one .tar by the browser's own download (the options menu), which
    // GNU tar unpacks to the same bytes.
    const whole = await browserDownloadAll(page);
    expect(whole.name).toMatch(/\.tar$/);
    const unpacked = await mkdtemp(path.join(scratch, 'untar-'));
    await promisify(execFile)('tar', ['-xf', whole.saved, '-C', unpacked]);
    for (const [filePath, hash] of Object.entries(sentFiles)) {
      expect(sha256(await readFile(path.join(unpacked, filePath)))).toBe(hash);
    }

    // Coming back by the same link later, the package stays open to this key.
    await page.reload();
    await page.getByRole('button', { name: 'PIN verified' }).waitFor();
    expect(await downloadAll.isDisabled()).toBe(false);
    await page.context().close();
  });

  it('tells a person with a wrong key that the package cannot be found', async () => {
    const page = await freshPage(product.browser);
    const tampered = new URL(link);
    tampered.searchParams.set('key', 'not-the-key');
    await page.goto(tampered.toString());
    await see(page, 'Sorry we cannot find that package');
    // Without any key there is nothing to ask the server.
    tampered.searchParams.delete('key');
    await page.goto(tampered.toString());
    await see(page, 'Sorry we cannot find that package');
    await page.context().close();
  });
});
