type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/**
 * The document as the reference viewer shows it. A path item that is only a `$ref` to another path
 * of the same document (the `.xml` forms of the management API, docs/partner-api.md, XML) is the
 * same operations again, and the viewer listed each of them twice. Here such a twin becomes a copy
 * of the path it names whose operations carry `x-scalar-ignore` (and no operationId of their own),
 * so the viewer lists every operation once while the twin paths stay in the document it reads. The
 * document itself, `/openapi.json` and `/openapi.yaml`, is served as written.
 */
export function referenceView(document: Json): Json {
  const paths = document.paths as Record<string, Json> | undefined;
  if (paths === undefined) return document;
  const viewPaths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    const target = twinTarget(item, paths);
    viewPaths[path] = target === undefined ? item : hiddenCopy(target);
  }
  return { ...document, paths: viewPaths };
}

function twinTarget(item: Json, paths: Record<string, Json>): Json | undefined {
  const ref = item.$ref;
  if (typeof ref !== 'string' || Object.keys(item).length !== 1 || !ref.startsWith('#/paths/'))
    return undefined;
  const name = ref.slice('#/paths/'.length).replace(/~1/g, '/').replace(/~0/g, '~');
  return paths[name];
}

function hiddenCopy(target: Json): Json {
  const copy = structuredClone(target);
  for (const method of METHODS) {
    const operation = copy[method] as Json | undefined;
    if (operation === undefined) continue;
    delete operation.operationId;
    operation['x-scalar-ignore'] = true;
  }
  return copy;
}
