import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// What the accessibility suites check on a page in Chromium: axe-core's WCAG 2.0/2.1 A and AA
// rules (serious and critical findings fail), and what a person on the keyboard alone meets
// (every control reached by Tab, each showing where the focus is).

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

/** The WCAG levels the product is held to. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** One rule broken on the page, with the elements that break it, as axe reports it. */
export interface Violation {
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * Waits until the page is still: transitions and one-off animations have run (a dialog fading
 * in would otherwise be measured half transparent). Endless ones (a spinner, the focus ripple's
 * pulse) are left running.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // Two frames first, so a transition the last change starts is under way and counted.
    for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
    const finite = document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * axe-core's serious and critical violations of the WCAG A and AA rules on the page as it is now
 * (a dialog open, a tab chosen), after its animations have settled.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await settled(page);
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    // Evaluated rather than added as a <script>: the product's Content-Security-Policy rightly
    // refuses inline scripts, and a test must not weaken it to get in.
    await page.evaluate(await axeSource);
  }
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.join(' '),
          html: n.html,
          summary: n.failureSummary ?? '',
        })),
      }));
  }, WCAG_TAGS);
}

/** The violations as a reader fixes them: rule, what it asks, and each element with why. */
export function describeViolations(screen: string, violations: Violation[]): string {
  const lines = [`${screen}: ${violations.length} serious or critical accessibility violations`];
  for (const v of violations) {
    lines.push(`- ${v.rule} (${v.impact}): ${v.help}`);
    for (const node of v.nodes) {
      lines.push(
        `    ${node.target}\n      ${node.html}\n      ${node.summary.replace(/\n/g, '\n      ')}`,
      );
    }
  }
  return lines.join('\n');
}

/** Fails, listing every violation and its elements, unless axe finds none serious or critical. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await seriousViolations(page);
  if (violations.length > 0) throw new Error(describeViolations(screen, violations));
}

/** A control the keyboard reached, as the Tab walk saw it. */
export interface FocusStop {
  /** Role or tag, and the accessible name or text, e.g. 'button "Send Package"'. */
  label: string;
  /** Whether something changed on screen when it took the focus (ring, outline, colour). */
  indicated: boolean;
}

/** What a walk through the page with the Tab key found. */
export interface TabWalk {
  stops: FocusStop[];
  /** Controls a pointer could use that Tab never reached. */
  unreached: string[];
}

/**
 * Presses Tab from the top of the page (or of `within`, e.g. an open dialog) until the focus
 * comes back round or leaves it, and answers each control it stopped on, whether its focus
 * showed, and the controls on screen it never reached. Whether the focus shows is judged by the
 * looks of the control and what draws its focus (its ancestors, the outline or ripple beside it)
 * focused, against the same looks once the walk is over and nothing has the focus.
 */
export async function tabThrough(page: Page, within = 'body', maxStops = 150): Promise<TabWalk> {
  await settled(page);
  // Starts before the first control: the focus on nothing, at the top of the part.
  await page.evaluate((selector) => {
    (document.activeElement as HTMLElement | null)?.blur();
    const start = document.querySelector<HTMLElement>(selector)!;
    start.setAttribute('tabindex', '-1');
    start.focus();
    start.removeAttribute('tabindex');
    window.focusLooks = new Map();
  }, within);
  const stops: { key: string; label: string }[] = [];
  for (let i = 0; i < maxStops; i++) {
    await page.keyboard.press('Tab');
    await settled(page);
    const stop = await page.evaluate(recordFocus, within);
    // Tab moving inside one control (a date's day, month and year) is still that stop.
    if (stop && stop.key === stops.at(-1)?.key) continue;
    if (!stop || stops.some((s) => s.key === stop.key)) break;
    stops.push(stop);
  }
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await settled(page);
  const { changed, unreached } = await page.evaluate(afterWalk, {
    within,
    reached: stops.map((s) => s.key),
  });
  return {
    stops: stops.map((s) => ({ label: s.label, indicated: changed.includes(s.key) })),
    unreached,
  };
}

declare global {
  interface Window {
    /** The Tab walk's record: each stop's looks while it had the focus. */
    focusLooks: Map<string, string>;
    /** The looks of a stop and what draws its focus (set by `recordFocus`). */
    looksOf: (el: HTMLElement) => string;
  }
}

/** In the page: names the focused control, keys it and records its looks. */
function recordFocus(within: string): { key: string; label: string } | null {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body || !document.querySelector(within)?.contains(el)) return null;
  el.dataset.tabStop ??= String(document.querySelectorAll('[data-tab-stop]').length);
  window.looksOf ??= (control: HTMLElement) => {
    const focusable = 'a[href], button, input, select, textarea, [tabindex]';
    // The control, its ancestors (a text field's focused border is its parent's, a chart's its
    // frame's), and the near ones' other children that hold no control of their own (the
    // outline, the focus ripple).
    const nodes: Element[] = [control, ...control.querySelectorAll('*')];
    for (let up = control.parentElement, n = 0; up && n < 5; up = up.parentElement, n++) {
      nodes.push(up);
      if (n >= 2) continue;
      for (const child of up.children) {
        if (child.contains(control) || child.matches(focusable) || child.querySelector(focusable))
          continue;
        nodes.push(child, ...child.querySelectorAll('*'));
      }
    }
    return nodes
      .map((node) => {
        const s = getComputedStyle(node);
        return [
          node.className,
          s.outlineStyle,
          s.outlineWidth,
          s.outlineColor,
          s.boxShadow,
          s.borderColor,
          s.borderWidth,
          s.backgroundColor,
          s.color,
          s.textDecorationLine,
        ].join('|');
      })
      .join('\n');
  };
  window.focusLooks.set(el.dataset.tabStop, window.looksOf(el));
  const role = el.getAttribute('role') ?? el.tagName.toLowerCase();
  const labelled = el.getAttribute('aria-labelledby');
  const name =
    el.getAttribute('aria-label') ??
    (labelled ? document.getElementById(labelled.split(' ')[0]!)?.textContent : null) ??
    (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ??
    el.textContent?.trim().slice(0, 40) ??
    '';
  // A control without a name is shown by its markup, so it can be found and named.
  const label = name ? `${role} "${name}"` : `${role}: ${el.outerHTML.slice(0, 200)}`;
  return { key: el.dataset.tabStop, label };
}

/**
 * In the page, the walk over: which stops looked different focused, and the controls a pointer
 * could use that no stop was (nor inside, nor around).
 */
function afterWalk({ within, reached }: { within: string; reached: string[] }) {
  const changed = reached.filter((key) => {
    const el = document.querySelector<HTMLElement>(`[data-tab-stop="${key}"]`);
    return el !== null && window.looksOf(el) !== window.focusLooks.get(key);
  });
  const part = document.querySelector(within)!;
  const interactive = part.querySelectorAll<HTMLElement>(
    'a[href], button, input, select, textarea, summary, [tabindex], [role=button], [role=link], [role=tab], [role=checkbox], [role=switch], [role=combobox], [role=menuitem], [role=option], [role=slider]',
  );
  const shown = (el: HTMLElement) =>
    el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden' &&
    !el.closest('[aria-hidden=true], [inert]');
  const isStop = (el: Element | null) =>
    el instanceof HTMLElement &&
    el.dataset.tabStop !== undefined &&
    reached.includes(el.dataset.tabStop);
  const unreached: string[] = [];
  for (const el of interactive) {
    if (!shown(el) || (el as HTMLButtonElement).disabled) continue;
    if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
    // A tab list, radio group, menu or toggle group is one stop; the arrow keys move inside it.
    const roving = el.closest(
      '[role=tablist], [role=radiogroup], [role=menu], [role=listbox], [role=grid], .MuiToggleButtonGroup-root',
    );
    if (el.tabIndex < 0 && roving) continue;
    // A combo box's open and clear buttons: the box itself opens its list with the arrow keys
    // and clears with Escape, so they are left out of the Tab order on purpose.
    const combo = el.closest('.MuiAutocomplete-root')?.querySelector('[role=combobox]');
    if (el.tabIndex < 0 && isStop(combo ?? null)) continue;
    if (el instanceof HTMLInputElement && el.type === 'radio') {
      const group = [...document.getElementsByName(el.name)];
      if (group.some((radio) => isStop(radio))) continue;
    }
    // A control inside one that was a stop, or around one (a switch's base and its input).
    if (isStop(el.closest('[data-tab-stop]'))) continue;
    if ([...el.querySelectorAll('[data-tab-stop]')].some(isStop)) continue;
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    unreached.push(
      `${el.getAttribute('role') ?? el.tagName.toLowerCase()} "${name}": ${el.outerHTML.slice(0, 200)}`,
    );
  }
  return { changed, unreached };
}

/** Fails unless every control on screen was a Tab stop and each showed that it had the focus. */
export function expectKeyboardReachable(screen: string, walk: TabWalk): void {
  const unseen = walk.stops.filter((s) => !s.indicated).map((s) => s.label);
  const problems = [
    ...walk.unreached.map((u) => `not reached by Tab: ${u}`),
    ...unseen.map((u) => `no visible focus: ${u}`),
  ];
  if (walk.stops.length === 0) problems.push('Tab reached nothing');
  if (problems.length > 0) throw new Error(`${screen}:\n- ${problems.join('\n- ')}`);
}
