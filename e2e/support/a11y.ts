/**
 * The page checks every journey runs where it takes a screenshot (docs/decisions/0048-page-checks.md):
 * axe-core's WCAG 2.1 A and AA rules with no serious or critical violation, and no horizontal overflow.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** The rule sets checked: WCAG 2.0 and 2.1, levels A and AA. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** The impacts that fail a journey; moderate and minor ones are not checked (decision 0048). */
const FAILING_IMPACTS = ['serious', 'critical'];

/** Time spent in the checks by this journey file, printed when it ends (what the checks cost the run). */
let spentMs = 0;
let checks = 0;
let axeRuns = 0;
export function reportCheckCost(file: string): void {
  if (checks) console.log(`page checks, ${file}: ${checks} pages (${axeRuns} checked with axe) in ${(spentMs / 1000).toFixed(1)} s`);
  spentMs = 0;
  checks = 0;
  axeRuns = 0;
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The pages checked with axe in this run, by address, skin, screen width and the set of class names in the
 * document (the components shown, each in its state): the same page shot again as it was,
 * by this journey or an earlier one (the journeys run one file at a time in one worker that keeps its
 * modules), is not checked by axe again (decision 0053).
 */
const checked = new Set<string>();

function fingerprint(page: Page): Promise<string> {
  return page.evaluate(() => {
    const classes = new Set<string>();
    for (const element of Array.from(document.querySelectorAll('*'))) element.classList.forEach((c) => classes.add(c));
    // The skin and its colour tokens too: an installation can dress a path otherwise than another.
    const skin = `${document.documentElement.dataset.skin ?? ''}${document.documentElement.getAttribute('style') ?? ''}`;
    return `${location.pathname}|${window.innerWidth}|${skin}|${[...classes].sort().join(' ')}`;
  });
}

/** axe-core's violations of serious or critical impact on the page as it is now. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ tags, impacts }) => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
      // What is fading in or out (the player's controls hiding after a while) is checked as it ends, not half-transparent.
      for (const animation of document.getAnimations()) {
        try {
          animation.finish();
        } catch {
          animation.cancel();
        }
      }
      const result = await axe.run(
        // What an open modal dialog hides (Radix marks it data-aria-hidden) sits under its backdrop, out of use.
        { exclude: [['[data-axe-exclude]'], ['[data-aria-hidden="true"]']] },
        { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] },
      );
      return result.violations
        .filter((v) => impacts.includes(v.impact ?? ''))
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')) }));
    },
    { tags: AXE_TAGS, impacts: FAILING_IMPACTS },
  );
}

/** The page's width beyond the viewport, and the widest element sticking out (null when it fits). */
export function horizontalOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const scroller = document.scrollingElement ?? document.documentElement;
    if (scroller.scrollWidth <= window.innerWidth) return null;
    let widest: Element | null = null;
    let widestRight = window.innerWidth;
    // Inside a box that scrolls or clips sideways, an element does not widen the page.
    const clipped = (element: Element) => {
      for (let e = element.parentElement; e && e !== document.body; e = e.parentElement) {
        if (getComputedStyle(e).overflowX !== 'visible') return true;
      }
      return false;
    };
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const right = element.getBoundingClientRect().right + window.scrollX;
      if (right > window.innerWidth && clipped(element)) continue;
      // The innermost of equally wide elements: the one that sticks out, not its containers.
      if (right >= widestRight && right > window.innerWidth) {
        widest = element;
        widestRight = right;
      }
    }
    const describe = (element: Element | null) => {
      if (!element) return 'no element (a margin or a transform)';
      const id = element.id ? `#${element.id}` : '';
      const classes = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
      const text = (element.textContent ?? '').trim().slice(0, 40);
      return `<${element.tagName.toLowerCase()}${id}${classes}> "${text}" ends at ${Math.round(widestRight)} px`;
    };
    return `${scroller.scrollWidth} px wide on a ${window.innerWidth} px screen: ${describe(widest)}`;
  });
}

/** Fails with what is wrong on the page: axe violations and horizontal overflow. */
export async function checkPage(page: Page, name: string): Promise<void> {
  const started = Date.now();
  const seen = await fingerprint(page);
  const fresh = !checked.has(seen);
  checked.add(seen);
  if (fresh) axeRuns += 1;
  const [violations, overflow] = await Promise.all([fresh ? axeViolations(page) : [], horizontalOverflow(page)]);
  spentMs += Date.now() - started;
  checks += 1;
  const problems = [
    ...violations.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.targets.join(' | ')}`),
    ...(overflow ? [`horizontal overflow: ${overflow}`] : []),
  ];
  if (problems.length) throw new Error(`${name} at ${page.url()}:\n  ${problems.join('\n  ')}`);
}
