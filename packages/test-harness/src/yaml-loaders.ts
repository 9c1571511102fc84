import { execFileSync } from 'node:child_process';
import { load } from 'js-yaml';

/** The YAML loaders a partner's tooling commonly uses. */
export type YamlLoader = 'js-yaml' | 'PyYAML' | 'ruamel.yaml';

const PYTHON_LOADERS: Record<Exclude<YamlLoader, 'js-yaml'>, { module: string; load: string }> = {
  PyYAML: { module: 'yaml', load: 'yaml.safe_load(sys.stdin)' },
  'ruamel.yaml': {
    module: 'ruamel.yaml',
    load: "ruamel.yaml.YAML(typ='safe', pure=True).load(sys.stdin)",
  },
};

/**
 * Debian's python3 carries the Debian packages (python3-yaml, python3-ruamel.yaml, which .ci/run
 * installs); a python3 earlier on the PATH (pyenv) may not.
 */
const PYTHONS = ['python3', '/usr/bin/python3'];

function pythonWith(module: string): string | undefined {
  return PYTHONS.find((python) => {
    try {
      execFileSync(python, ['-c', `import ${module}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The value each loader reads from `text`, as JSON (so a YAML 1.1 date or base-60 number shows as
 * what it became). A Python loader that is not installed gives `undefined`: the caller fails under
 * CI (which installs them) and warns otherwise (docs/testing.md).
 */
export function loadWithEveryYamlLoader(text: string): Record<YamlLoader, unknown> {
  const result = { 'js-yaml': JSON.parse(JSON.stringify(load(text))) as unknown } as Record<
    YamlLoader,
    unknown
  >;
  for (const [name, loader] of Object.entries(PYTHON_LOADERS) as [
    Exclude<YamlLoader, 'js-yaml'>,
    { module: string; load: string },
  ][]) {
    const python = pythonWith(loader.module);
    if (python === undefined) {
      result[name] = undefined;
      continue;
    }
    const script = `import sys, json, ${loader.module}\nvalue = ${loader.load}\nprint(json.dumps(value, default=repr))`;
    result[name] = JSON.parse(
      execFileSync(python, ['-c', script], { input: text, maxBuffer: 64 * 1024 * 1024 }).toString('utf8'),
    ) as unknown;
  }
  return result;
}
