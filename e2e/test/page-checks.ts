import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's whole script, as a page runs it. */
const axeSource = axe.source;

/**
 * What every page must be for a person at any size: nothing wider than the screen, and no serious or critical
 * accessibility violation (axe-core, run in the page as it is, under its own Content-Security-Policy: the
 * script is given to the page through the browser's protocol, not as a tag). Answers the problems, in words.
 */
export async function pageProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
    // The innermost element that reaches past the screen's right edge: what to fix.
    const past = Array.from(document.body.querySelectorAll('*')).filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1);
    const inner = past.filter((e) => !past.some((other) => other !== e && e.contains(other)));
    const name = (e: Element) =>
      `<${e.tagName.toLowerCase()}${e.className ? ` class="${e.className}"` : ''}> "${(e.textContent ?? '').trim().slice(0, 40)}"`;
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, widest: inner.slice(0, 3).map(name) };
  });
  if (scrollWidth > innerWidth) problems.push(`${page.url()}: ${scrollWidth} px wide on a ${innerWidth} px screen (${widest.join(', ')})`);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; help: string; nodes: unknown[] }[] }> } }
    ).axe;
    return (await axe.run()).violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, count: nodes.length }));
  });
  for (const v of violations)
    if (v.impact === 'serious' || v.impact === 'critical')
      problems.push(`${page.url()}: ${v.impact} ${v.id} (${v.help}) on ${v.count} element(s)`);
  return problems;
}
