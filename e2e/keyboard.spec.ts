import type { Page } from '@playwright/test';
import { expect, PUBLIC_KB, test, waitForHydration } from './fixtures';
import { requestOf, setUpPageTable, type PageTable, type Who } from './page-table';
import { disposeSecurityFixtures, setUpSecurityFixtures, type SecurityFixtures } from './security-setup';

/**
 * Every action by keyboard, with a visible focus: on every page, as the role that uses it, Tab reaches every
 * control, each shows a focus indicator it does not show unfocused, and nothing that answers a click is out of the
 * keyboard's reach. Tab lists follow the WAI-ARIA pattern, and what a click on a graph's node does has a keyboard
 * way beside the drawing.
 */

let f: SecurityFixtures;
let table: PageTable;
const kb = `/kb/${PUBLIC_KB.slug}`;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  f = await setUpSecurityFixtures(playwright);
  table = await setUpPageTable(f, 'keyboard');
});
test.afterAll(async () => disposeSecurityFixtures(f));

async function signInAs(page: Page, who: Who): Promise<void> {
  await page.context().clearCookies();
  const request = requestOf(f, who);
  if (request) await page.context().addCookies((await request.storageState()).cookies);
}

/** How a control is drawn: what shows a focus, if anything. */
type Drawn = { outline: string; shadow: string };
/** The Tab walk's record, kept in the page: the controls to reach as drawn unfocused, and each focus taken. */
type WalkWindow = { __kb: { drawn: Map<Element, Drawn>; reached: { el: Element; focusVisible: boolean; before: Drawn | null; after: Drawn }[] } };

/** Opens a page and waits until React has hydrated it and nothing is loading. */
async function open(page: Page, path: string): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(400);
  await waitForHydration(page.locator('header button, header a, main button, main a, main input').first());
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * Marks the controls Tab should reach (visible, enabled, in the tab order; one radio per group) and notes how each
 * is drawn unfocused; the focus indicator is looked for on the control, or on its label when the control itself
 * is visually hidden (the rating scales' radios). Records every element that takes the focus from now on.
 */
function prepare(): number {
  const FOCUSABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex], [contenteditable="true"]';
  const w = window as unknown as WalkWindow;
  const drawnOf = (el: Element) => (el.getBoundingClientRect().width <= 1 ? el.closest('label') ?? el : el);
  const style = (el: Element): Drawn => {
    const s = getComputedStyle(el);
    return { outline: s.outlineStyle === 'none' || parseFloat(s.outlineWidth) === 0 ? 'none' : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`, shadow: s.boxShadow };
  };
  const seenGroups = new Set<string>();
  const drawn = new Map<Element, Drawn>();
  let i = 0;
  for (const el of document.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (el.tabIndex < 0 || el.matches(':disabled') || el.closest('[inert], [aria-hidden="true"]')) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    if (el instanceof HTMLInputElement && el.type === 'radio') {
      if (seenGroups.has(el.name)) continue;
      seenGroups.add(el.name);
    }
    el.dataset.kbIndex = String(i++);
    drawn.set(el, style(drawnOf(el)));
  }
  w.__kb = { drawn, reached: [] };
  document.addEventListener('focusin', (event) => {
    const el = event.target as HTMLElement;
    w.__kb.reached.push({ el, focusVisible: el.matches(':focus-visible'), before: drawn.get(el) ?? null, after: style(drawnOf(el)) });
  });
  return i;
}

/** What the Tab walk found: controls it never reached, and those whose focus does not show. */
function findings(): { unreached: string[]; invisible: string[]; count: number } {
  const w = window as unknown as WalkWindow;
  const name = (el: Element) => {
    const id = el.getAttribute('data-testid') ?? el.id;
    const text = (el.getAttribute('aria-label') ?? el.textContent ?? (el as HTMLInputElement).name ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id ? ` ${id}` : ''}> "${text}"`;
  };
  const reached = new Set(w.__kb.reached.map((r) => r.el));
  // A radio group is reached through any of its radios.
  const reachedGroups = new Set([...reached].filter((el): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === 'radio').map((el) => el.name));
  const unreached = [...w.__kb.drawn.keys()].filter((el) => el.isConnected && !reached.has(el)
    && !(el instanceof HTMLInputElement && el.type === 'radio' && reachedGroups.has(el.name))).map(name);
  const invisible = w.__kb.reached.filter((r) => !r.focusVisible || (r.after.outline === 'none' && r.after.shadow === 'none')
    || (r.before && r.after.outline === r.before.outline && r.after.shadow === r.before.shadow)).map((r) => `${name(r.el)} (${r.focusVisible ? '' : 'not :focus-visible; '}outline ${r.after.outline}, shadow ${r.after.shadow})`);
  return { unreached, invisible: [...new Set(invisible)], count: reached.size };
}

/**
 * Elements that answer a click (a React click, mouse-down or pointer-down handler) but that the keyboard cannot
 * reach: not focusable themselves, not a label (which hands the click to its control), not an option of a list
 * a focused combobox drives, not inside a focusable widget that handles the keys itself (the candidate list), and
 * not part of a chart or graph drawn as one image (its hover layer; the image's text equivalent is checked elsewhere).
 * A focusable element that is not a native control must handle keys too, or Enter would do nothing.
 */
function clickOnly(): string[] {
  const NATIVE = 'a[href], button, input, select, textarea, summary, label';
  const props = (el: Element): Record<string, unknown> | undefined => {
    const key = Object.keys(el).find((k) => k.startsWith('__reactProps$'));
    return key ? (el as unknown as Record<string, Record<string, unknown>>)[key] : undefined;
  };
  const clicks = (el: Element) => { const p = props(el); return !!p && ['onClick', 'onMouseDown', 'onPointerDown'].some((k) => typeof p[k] === 'function'); };
  const handlesKeys = (el: Element | null): boolean => {
    for (let at = el; at; at = at.parentElement) {
      const p = props(at);
      if (p && typeof p.onKeyDown === 'function' && (at as HTMLElement).tabIndex >= 0) return true;
    }
    return false;
  };
  const bad: string[] = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!clicks(el) || el.matches(NATIVE) || !el.getClientRects().length) continue;
    if (el.getAttribute('role') === 'option' && el.closest('[role="listbox"]')) continue;
    if (el.closest('[role="img"]')) continue;
    if (handlesKeys(el)) continue;
    const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    bad.push(`<${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? ` ${el.getAttribute('data-testid')}` : ''}> "${text}"`);
  }
  return bad;
}

/** Whether every control to reach has taken the focus. */
function allReached(): boolean {
  const { drawn, reached } = (window as unknown as WalkWindow).__kb;
  const seen = new Set(reached.map((r) => r.el));
  return [...drawn.keys()].every((el) => seen.has(el) || !el.isConnected);
}

/**
 * Presses Tab through the whole page until every control has had the focus, or twice round (a date field's
 * parts are tab stops of their own, so a page can have more stops than controls), then reports.
 */
async function walk(page: Page, path: string): Promise<void> {
  const count = await page.evaluate(prepare);
  expect(count, `${path} has controls`).toBeGreaterThan(0);
  // Start from the document, as a person arriving on the page does.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let pressed = 0; pressed < 2 * count + 10;) {
    for (const end = pressed + 10; pressed < end; pressed++) await page.keyboard.press('Tab');
    if (await page.evaluate(allReached)) break;
  }
  const found = await page.evaluate(findings);
  expect.soft(found.unreached, `${path}: controls Tab does not reach (${found.count} of ${count} reached)`).toEqual([]);
  expect.soft(found.invisible, `${path}: controls whose focus does not show`).toEqual([]);
  expect.soft(await page.evaluate(clickOnly), `${path}: elements that answer a click but not the keyboard`).toEqual([]);
}

test('every page: Tab reaches every control, each shows its focus, and nothing answers only a click', async ({ page }) => {
  test.setTimeout(420_000);
  let who: Who | null = null;
  for (const entry of table.pages) {
    if (entry.who !== who) await signInAs(page, (who = entry.who));
    await open(page, entry.path);
    await walk(page, entry.path);
  }
});

test('the workspace’s seed tabs and the query set’s views follow the WAI-ARIA tabs pattern', async ({ page }) => {
  await signInAs(page, 'owner');
  await open(page, `${kb}/campaigns/${f.campaignId}/work/${f.assignmentId}`);
  const seedTabs = page.getByRole('tablist', { name: 'The seed’s relations' });
  const tab = (name: string) => seedTabs.getByRole('tab', { name, exact: true });
  const panel = page.locator('#seed-panel-relations, #seed-panel-neighbours, #seed-panel-graph');
  await expect(seedTabs.getByRole('tab')).toHaveText(['Relations', 'Neighbours', 'Graph']);
  // One tab stop: only the selected tab is in the tab order.
  await expect(seedTabs.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  await tab('Relations').focus();
  for (const [key, name] of [['ArrowRight', 'Neighbours'], ['End', 'Graph'], ['ArrowRight', 'Relations'], ['ArrowLeft', 'Graph'], ['Home', 'Relations'], ['ArrowRight', 'Neighbours']] as const) {
    await page.keyboard.press(key);
    await expect(tab(name), `${key} moves to ${name}`).toBeFocused();
    await expect(tab(name)).toHaveAttribute('aria-selected', 'true');
    await expect(tab(name)).toHaveAttribute('tabindex', '0');
    await expect(panel).toHaveAttribute('aria-labelledby', (await tab(name).getAttribute('id'))!);
  }
  await expect(seedTabs.locator('[aria-selected="true"]')).toHaveCount(1);
  // Tab from the list goes to the panel, which shows the chosen view.
  await page.keyboard.press('Tab');
  await expect(panel).toBeFocused();
  await expect(panel.getByRole('table')).toBeVisible();

  await signInAs(page, 'admin');
  await open(page, `${kb}/queries/${f.perKb.public.querySet}`);
  const views = page.getByRole('tablist', { name: 'Query set views' });
  await views.getByRole('tab', { name: 'Queries' }).focus();
  await page.keyboard.press('End');
  await expect(views.getByRole('tab', { name: 'Runs' })).toBeFocused();
  await expect(page).toHaveURL(/\?tab=runs$/);
  await page.keyboard.press('ArrowRight');
  await expect(views.getByRole('tab', { name: 'Queries' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).not.toHaveURL(/tab=/);
  // Two keys in one task, before React draws the first one's tab: the second still moves on from that tab.
  await page.evaluate(() => {
    const press = (key: string) => document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    press('End');
    press('ArrowRight');
  });
  await expect(views.getByRole('tab', { name: 'Queries' })).toBeFocused();
  await expect(page).not.toHaveURL(/tab=/);
  await expect(views.getByRole('tab', { name: 'Queries' })).toHaveAttribute('aria-selected', 'true');
});

test('what a click on a graph node does can be done by keyboard beside the drawing', async ({ page }) => {
  const { entityId, otherEntityId } = f.perKb.public;
  await signInAs(page, 'admin');

  // The graph page: a node of the list is chosen with Enter (a click on the node selects it) and expanded
  // from the side panel (a double click expands it).
  await open(page, `${kb}/graph?entity=${entityId}`);
  const node = page.getByTestId('graph-node-list').getByRole('button').nth(1);
  const nodeName = (await node.locator('span.truncate').textContent())!;
  await node.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('graph-selected-name')).toHaveText(nodeName);
  await expect(node).toHaveAttribute('aria-pressed', 'true');
  const expand = page.getByTestId('graph-side-panel').getByRole('button', { name: 'Expand' });
  await expand.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]expand=\d+/);

  // The entity page: a click on a neighbour opens it; so does Enter on its link in the neighbour list.
  await open(page, `${kb}/entities/${entityId}`);
  const neighbour = page.getByTestId('neighbour-rows').getByRole('link').first();
  const neighbourName = (await neighbour.textContent())!;
  await neighbour.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('entity-name')).toHaveText(neighbourName);

  // The paths page: a click on an entity of the drawing opens it; the chosen path lists its entities as links.
  await open(page, `${kb}/paths?from=${entityId}&to=${otherEntityId}`);
  const pathItem = page.getByTestId('path-item').first();
  await pathItem.focus();
  await page.keyboard.press('Enter');
  await expect(pathItem).toHaveAttribute('aria-pressed', 'true');
  const entities = page.getByTestId('path-entities').getByRole('link');
  await expect(entities.first()).toHaveAttribute('href', `${kb}/entities/${entityId}`);
  await expect(entities.last()).toHaveAttribute('href', `${kb}/entities/${otherEntityId}`);
  await entities.last().focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((u) => u.pathname === `${kb}/entities/${otherEntityId}`);
});
