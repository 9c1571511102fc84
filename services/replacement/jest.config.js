const { jestConfig } = require('../../jest.base.js');

// Integration tests need Redis only; the harness uses TEST_REDIS_URL or starts a container.
module.exports = jestConfig(__dirname, 'replacement', {
  // bench/ holds the benchmarks beside src/ (docs/testing.md); their unit tests run with the rest.
  roots: ['<rootDir>/src', '<rootDir>/bench'],
  globalSetup: '<rootDir>/../../packages/test-harness/jest-global-setup.js',
  globalTeardown: '<rootDir>/../../packages/test-harness/jest-global-teardown.js',
});
