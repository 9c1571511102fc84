import path from 'node:path';
import { dashboardFiles, readDashboard } from './test-support/dashboard-queries';

const DATASOURCE = { type: 'prometheus', uid: '${DS_PROMETHEUS}' };

describe.each(dashboardFiles().map((file) => [path.basename(file), file]))('dashboards/%s', (_name, file) => {
  const dashboard = readDashboard(file);

  it('imports into Grafana with the Prometheus data source chosen at import (DS_PROMETHEUS)', () => {
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
    ]);
    expect(dashboard.uid).toMatch(/^trackline-/);
    expect(dashboard.panels.length).toBeGreaterThan(0);
  });

  it('queries that data source from every panel and target, each target with a query', () => {
    const ids = new Set<number>();
    for (const panel of dashboard.panels) {
      ids.add(panel.id);
      expect(panel.datasource).toEqual(DATASOURCE);
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.datasource).toEqual(DATASOURCE);
        expect(target.expr.trim()).not.toBe('');
      }
    }
    expect(ids.size).toBe(dashboard.panels.length);
  });
});
