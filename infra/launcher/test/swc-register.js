// Lets a child process started by a test run the launcher's TypeScript sources directly (no build),
// the way jest does with @swc/jest. Tests need this because PGlite loads Node built-ins through
// dynamic import(), which jest's module sandbox refuses: PGlite therefore runs in a child process.
const { transformSync } = require('@swc/core');
const { readFileSync } = require('node:fs');

const options = {
  jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
