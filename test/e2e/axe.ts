import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's findings on the page as it stands, injected by the test (nothing of it ships with the app). */
export async function violationsOn(page: Page): Promise<string[]> {
  // Evaluated, not added as a script tag: the app's Content-Security-Policy rightly refuses inline scripts.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown }> } }
    ).axe;
    return (await axe.run(document)).violations;
  })) as Violation[];
  return violations.map(
    (v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
