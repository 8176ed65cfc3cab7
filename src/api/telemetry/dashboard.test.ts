import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../runtime/project-root';
import { collectProcessMetrics, registry } from './metrics';

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, 'deploy/grafana/workbench-dashboard.json'), 'utf8'),
) as { panels: Panel[]; templating: { list: { name: string; type: string }[] } };

describe('the Grafana dashboard (deploy/grafana/workbench-dashboard.json)', () => {
  collectProcessMetrics();
  const known = new Set(registry.getMetricsAsArray().map((metric) => metric.name));
  const queried = dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
  );
  /** The metrics an expression reads: its names but those of the labels it groups by. */
  const metricsOf = (expr: string, prefixes = 'workbench|gen_ai|process|nodejs') =>
    [
      ...expr
        .replace(/\b(by|without)\s*\([^)]*\)/g, '')
        .matchAll(new RegExp(`\\b((?:${prefixes})_\\w+)`, 'g')),
    ].map(([name]) => name!.replace(/_(bucket|sum|count)$/, ''));

  it('picks its Prometheus data source and instances as variables', () => {
    expect(dashboard.templating.list.map(({ name, type }) => `${name}:${type}`)).toEqual([
      'datasource:datasource',
      'instance:query',
    ]);
  });

  it.each(queried)('$panel queries only metrics the server has', ({ expr }) => {
    const names = metricsOf(expr);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(known, name).toContain(name);
  });

  it('shows every metric of the service', () => {
    const shown = new Set(queried.flatMap(({ expr }) => metricsOf(expr)));
    const own = [...known].filter((name) => name.startsWith('workbench_') || name.startsWith('gen_ai_'));
    expect(own.filter((name) => !shown.has(name))).toEqual([]);
  });
});
