// Lets a child process started by a test run the management TypeScript sources directly, as jest
// does: the same swc options as jest.base.js (TypeORM's decorators need the legacy form with
// metadata) and `@trackline/<package>` taken from the package's sources, so no build is needed.
// Usage: node -r ./ts-register.js script.ts
const Module = require('node:module');
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const WORKSPACE_PACKAGE = /^@trackline\/(domain|contracts|platform|test-harness)$/;

const options = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const workspace = WORKSPACE_PACKAGE.exec(request);
  if (workspace !== null) {
    return path.join(ROOT, 'packages', workspace[1], 'src', 'index.ts');
  }
  return resolveFilename.call(this, request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
