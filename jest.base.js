// Shared jest settings: every package compiles TypeScript with swc (fast, decorator metadata on)
// and resolves workspace packages to their sources, so tests never need a prior build.
const path = require('node:path');

const swcOptions = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

function jestConfig(packageDir, displayName, overrides = {}) {
  const root = path.resolve(__dirname);
  return {
    displayName,
    rootDir: packageDir,
    testEnvironment: 'node',
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    // Used when a package's own jest.config.js is the run's config; the root config sets the same.
    testTimeout: 30_000,
    transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swcOptions] },
    moduleNameMapper: {
      '^@trackline/(domain|contracts|platform|tracing|test-harness|client)$': `${root}/packages/$1/src/index.ts`,
      '^@trackline/(replacement)$': `${root}/services/$1/src/index.ts`,
    },
    ...overrides,
  };
}

module.exports = { jestConfig };
