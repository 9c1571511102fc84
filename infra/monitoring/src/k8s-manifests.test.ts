import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readRules, REPOSITORY_ROOT } from './rules-file';
import { dashboardQueries } from './test-support/dashboard-queries';
import { kustomizeResources, selects, type Manifest } from './test-support/kustomize-tree';
import { binaryOnPath } from './test-support/prometheus-binaries';

const K8S = path.join(REPOSITORY_ROOT, 'infra', 'k8s');
const OVERLAY = path.join(K8S, 'overlays', 'prometheus-operator');
const SERVICES = ['management', 'replacement'];

type PodTemplate = { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
const template = (deployment: Manifest) => (deployment.spec as { template: PodTemplate }).template;
const byKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind);

describe('infra/k8s, the base (clusters without the Prometheus operator)', () => {
  const base = kustomizeResources(K8S);
  const deployments = byKind(base, 'Deployment');

  it('deploys both services and no operator resource', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(SERVICES);
    expect(base.filter((m) => m.apiVersion.startsWith('monitoring.coreos.com/'))).toEqual([]);
  });

  it.each(SERVICES)('gives %s a PodDisruptionBudget of one pod that selects its pods only', (name) => {
    const deployment = deployments.find((d) => d.metadata.name === name)!;
    const budgets = byKind(base, 'PodDisruptionBudget').filter((pdb) =>
      selects(
        (pdb.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
        template(deployment).metadata.labels,
      ),
    );
    expect(budgets.map((pdb) => [pdb.metadata.name, pdb.spec!.maxUnavailable])).toEqual([[name, 1]]);
  });

  it.each(SERVICES)('spreads %s over nodes and zones, counting its own pods', (name) => {
    const pod = template(deployments.find((d) => d.metadata.name === name)!);
    const constraints = pod.spec.topologySpreadConstraints as Array<{
      topologyKey: string;
      labelSelector: { matchLabels: Record<string, string> };
    }>;
    expect(constraints.map((c) => c.topologyKey)).toEqual([
      'kubernetes.io/hostname',
      'topology.kubernetes.io/zone',
    ]);
    for (const constraint of constraints)
      expect(selects(constraint.labelSelector.matchLabels, pod.metadata.labels)).toBe(true);
  });
});

describe('infra/k8s/overlays/prometheus-operator', () => {
  const overlay = kustomizeResources(OVERLAY);

  it('is the base plus two ServiceMonitors and one PrometheusRule', () => {
    const base = kustomizeResources(K8S).map((m) => `${m.kind}/${m.metadata.name}`);
    const added = overlay.map((m) => `${m.kind}/${m.metadata.name}`).filter((id) => !base.includes(id));
    expect(added.sort()).toEqual([
      'PrometheusRule/trackline',
      'ServiceMonitor/management',
      'ServiceMonitor/replacement',
    ]);
  });

  it.each(SERVICES)(
    'scrapes %s through a Service port that exists, under the job name the rules use',
    (name) => {
      const monitor = byKind(overlay, 'ServiceMonitor').find((m) => m.metadata.name === name)!;
      const spec = monitor.spec as {
        selector: { matchLabels: Record<string, string> };
        endpoints: Array<{
          port: string;
          path: string;
          relabelings: Array<{ targetLabel: string; replacement: string }>;
        }>;
      };
      const services = byKind(overlay, 'Service').filter((s) =>
        selects(spec.selector.matchLabels, s.metadata.labels),
      );
      expect(services.map((s) => s.metadata.name)).toEqual([name]);
      const ports = (services[0]!.spec as { ports: Array<{ name: string }> }).ports.map((p) => p.name);
      for (const endpoint of spec.endpoints) {
        expect(ports).toContain(endpoint.port);
        expect(endpoint.path).toBe('/metrics');
        expect(endpoint.relabelings).toContainEqual({ targetLabel: 'job', replacement: `trackline-${name}` });
      }
      // The job name is the one the target alert and the dashboards select.
      const alert = readRules()
        .groups.flatMap((g) => g.rules)
        .find((r) => 'alert' in r && r.alert === 'TracklineTargetDown')!;
      expect(alert.expr).toContain(name);
      expect(dashboardQueries().some((q) => q.expr.includes(`job="trackline-${name}"`))).toBe(true);
    },
  );
});

// kubectl renders what the cluster would get; the checks above hold on machines without it too.
const describeKubectl = binaryOnPath('kubectl') === undefined ? describe.skip : describe;
describeKubectl('kubectl kustomize', () => {
  it.each([
    ['infra/k8s', K8S],
    ['infra/k8s/overlays/prometheus-operator', OVERLAY],
  ])('renders %s to the resources read above', (_name, dir) => {
    const rendered = parseAllDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' })).map(
      (doc) => doc.toJS() as Manifest,
    );
    const ids = (manifests: Manifest[]) =>
      manifests.map((m) => `${m.kind}/${m.metadata.namespace ?? ''}/${m.metadata.name}`).sort();
    expect(ids(rendered)).toEqual(ids(kustomizeResources(dir)));
  });
});
