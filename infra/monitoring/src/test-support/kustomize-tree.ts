import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/**
 * The manifests a kustomization lists, read without kustomize: its `resources` (files, or folders
 * with a kustomization.yaml of their own) and its `namespace`. Enough to check how the manifests
 * refer to each other on a machine without kubectl; kubectl kustomize renders them where it is.
 */
export function kustomizeResources(dir: string): Manifest[] {
  const kustomization = readYaml(path.join(dir, 'kustomization.yaml'))[0] as {
    resources?: string[];
    namespace?: string;
  };
  const manifests = (kustomization.resources ?? []).flatMap((entry) => {
    const target = path.join(dir, entry);
    return statSync(target).isDirectory() ? kustomizeResources(target) : (readYaml(target) as Manifest[]);
  });
  if (kustomization.namespace === undefined) return manifests;
  return manifests.map((manifest) =>
    manifest.kind === 'Namespace'
      ? manifest
      : { ...manifest, metadata: { ...manifest.metadata, namespace: kustomization.namespace } },
  );
}

function readYaml(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS() as unknown)
    .filter((value) => value !== null);
}

/** True when every key of selector has the same value in labels (a matchLabels selector). */
export function selects(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> = {},
): boolean {
  if (selector === undefined || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}
