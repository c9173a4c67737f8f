import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, productOfFile } from './harness';
import { freshPage, logIn, signedIn, uncovered } from './pages';
import { sendDemoPackage } from './sent-package';

// The signed-in screens on a phone (390 px wide, an iPhone's window): nothing is cut off at the
// side, the sidebar is a menu opened from the top bar, and Inbox and Sent show one pane at a time.

const PHONE = { width: 390, height: 844 };
const SENDER = 'sender@example.com';
const ADMIN = 'admin@example.com';

const product = productOfFile();
let slug: string;

beforeAll(async () => {
  slug = await sendDemoPackage(product.server.url, {
    sender: SENDER,
    recipients: [ADMIN],
    name: 'Storyboards for the pitch',
    message: 'The final boards, scenes 1 to 12, for Monday',
    files: [{ path: 'Boards/scene_01.pdf', bytes: Buffer.alloc(20_000, 7) }],
  });
});

async function onPhone(email: string): Promise<Page> {
  const page = await freshPage(product.browser);
  await page.setViewportSize(PHONE);
  await logIn(page, product.server.url, email, DEMO_PASSWORD);
  return page;
}

/**
 * What the window cuts off at its sides: the page wider than the window, and each visible element
 * reaching past an edge that no scroll container of its own (a wide table's, a row of tabs')
 * brings into view. The screen itself scrolling sideways does not count: on a phone that is
 * content the person cannot find.
 */
function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) found.push(`the page is ${pageWidth} px wide`);
    const scrollsSideways = (element: Element) => {
      const style = getComputedStyle(element);
      return (
        element.tagName !== 'MAIN' &&
        (style.overflowX === 'auto' || style.overflowX === 'scroll') &&
        element.getBoundingClientRect().left >= -0.5 &&
        element.getBoundingClientRect().right <= width + 0.5
      );
    };
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Invisible on purpose: the real inputs under MUI's switches and checkboxes.
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      if (box.left >= -0.5 && box.right <= width + 0.5) continue;
      let reachable = false;
      for (let up = element.parentElement; up && !reachable; up = up.parentElement) {
        reachable = scrollsSideways(up);
      }
      if (reachable) continue;
      const text = (element.textContent ?? '').trim().slice(0, 40);
      const name = element.getAttribute('aria-label') ?? element.getAttribute('data-testid');
      found.push(
        `<${element.tagName.toLowerCase()}> ${name ?? JSON.stringify(text)} ` +
          `${Math.round(box.left)}..${Math.round(box.right)} px`,
      );
    }
    return found;
  });
}

/** Opens the menu from the top bar and chooses `screen` in it. */
async function openFromMenu(page: Page, screen: string) {
  await page.getByRole('button', { name: 'Open the menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main' });
  await menu.getByRole('link', { name: screen, exact: true }).click();
  await menu.waitFor({ state: 'hidden' });
}

/** Visits each path as the person and answers what is cut off on each screen. */
async function clippedScreens(page: Page, paths: string[]): Promise<Record<string, string[]>> {
  const clipped: Record<string, string[]> = {};
  for (const path of paths) {
    await page.goto(`${product.server.url}${path}`);
    await page.getByRole('main').getByRole('heading').first().waitFor();
    // Late parts of a screen (lists, avatars) settle before it is measured.
    await page.waitForLoadState('networkidle');
    const found = await cutOff(page);
    // The first few name the fault; the rest are mostly their children.
    if (found.length > 0) clipped[path] = found.slice(0, 8);
  }
  return clipped;
}

describe('the app on a phone', () => {
  it("cuts nothing off on a sender's screens", async () => {
    const page = await onPhone(SENDER);
    expect(
      await clippedScreens(page, [
        '/share',
        '/inbox',
        '/sent',
        `/sent/${slug}`,
        '/profile',
        '/profile/permissions',
        '/profile/update-password',
        '/profile/user-settings',
        '/profile/api-keys',
      ]),
    ).toEqual({});
  });

  it("cuts nothing off on an admin's screens", async () => {
    const page = await onPhone(ADMIN);
    expect(
      await clippedScreens(page, [
        '/inbox',
        `/inbox/${slug}`,
        '/activity',
        '/users',
        '/users?tab=groups',
        '/settings',
        '/settings/demo/custom-branding',
        '/profile',
      ]),
    ).toEqual({});
  });

  it('has the sidebar as a menu opened from the top bar, and it navigates', async () => {
    const page = await onPhone(SENDER);
    // No sidebar beside the screen: the screen has the whole width.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    const main = await page.getByRole('main').boundingBox();
    expect(main?.x).toBe(0);
    expect(main?.width).toBe(PHONE.width);

    await openFromMenu(page, 'Share');
    await page.waitForURL('**/share');
    await openFromMenu(page, 'Sent');
    await page.waitForURL('**/sent');
    await page.getByRole('list', { name: 'Sent packages' }).waitFor();

    // Closed without choosing: a tap beside it.
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    // The drawer slides in: its links are reachable once it is in place.
    await expect
      .poll(() => uncovered(menu.getByRole('link', { name: 'Inbox', exact: true })))
      .toBe(true);
    await page.mouse.click(PHONE.width - 10, PHONE.height / 2);
    await menu.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/sent');

    // Offline, the banner (two lines on a phone) covers neither the menu button nor the menu.
    await page.context().setOffline(true);
    await page.getByText('You are currently offline').waitFor();
    await page.getByRole('button', { name: 'Open the menu' }).click({ timeout: 5_000 });
    await expect.poll(() => uncovered(menu.getByRole('link', { name: 'Share' }))).toBe(true);
    await page.context().setOffline(false);
  });

  it('shows the Inbox one pane at a time: the list, the package, back to the list', async () => {
    const page = await onPhone(ADMIN);
    await page.goto(`${product.server.url}/inbox`);
    const list = page.getByRole('list', { name: 'Received packages' });
    const detail = page.getByRole('region', { name: 'Package details' });
    await list.getByText('Storyboards for the pitch').waitFor();
    expect(await detail.count()).toBe(0);
    expect((await list.boundingBox())!.width).toBeGreaterThan(PHONE.width - 60);

    await list.getByText('Storyboards for the pitch').click();
    await page.waitForURL(`**/inbox/${slug}`);
    await detail.getByRole('heading', { name: 'Storyboards for the pitch' }).waitFor();
    await detail.getByText('The final boards, scenes 1 to 12, for Monday').waitFor();
    expect(await list.count()).toBe(0);
    expect(await cutOff(page)).toEqual([]);

    await detail.getByRole('link', { name: 'Back to Inbox' }).click();
    await page.waitForURL((url) => url.pathname === '/inbox');
    await list.getByText('Storyboards for the pitch').waitFor();
    expect(await detail.count()).toBe(0);
  });

  it('keeps the side-by-side panes and the sidebar on a wide window', async () => {
    const page = await signedIn(product, ADMIN);
    await page.goto(`${product.server.url}/inbox/${slug}`);
    await page.getByRole('list', { name: 'Received packages' }).waitFor();
    await page.getByRole('region', { name: 'Package details' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByText('Inbox').waitFor();
    expect(await page.getByRole('button', { name: 'Open the menu' }).count()).toBe(0);
  });
});
