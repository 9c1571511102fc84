import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MONITORING_DIR } from '../rules-file';

export const DASHBOARDS_DIR = path.join(MONITORING_DIR, 'dashboards');

export interface DashboardTarget {
  refId: string;
  expr: string;
  datasource?: { type?: string; uid?: string };
}

export interface DashboardPanel {
  id: number;
  title: string;
  type: string;
  datasource?: { type?: string; uid?: string };
  targets?: DashboardTarget[];
}

export interface Dashboard {
  uid: string;
  title: string;
  __inputs?: Array<{ name: string; type: string; pluginId: string }>;
  panels: DashboardPanel[];
}

/** One query of one panel: what Grafana sends to Prometheus, exactly as the dashboard file holds it. */
export interface DashboardQuery {
  dashboard: string;
  panel: string;
  refId: string;
  expr: string;
}

export function dashboardFiles(): string[] {
  return readdirSync(DASHBOARDS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(DASHBOARDS_DIR, name));
}

export function readDashboard(file: string): Dashboard {
  return JSON.parse(readFileSync(file, 'utf8')) as Dashboard;
}

/** Every panel query of every dashboard under infra/monitoring/dashboards/. */
export function dashboardQueries(): DashboardQuery[] {
  return dashboardFiles().flatMap((file) => {
    const dashboard = readDashboard(file);
    return dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        dashboard: path.basename(file),
        panel: panel.title,
        refId: target.refId,
        expr: target.expr,
      })),
    );
  });
}
