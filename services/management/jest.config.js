const { jestConfig } = require('../../jest.base.js');

module.exports = jestConfig(__dirname, 'management', {
  // bench/ holds the benchmarks beside src/ (docs/testing.md); their unit tests run with the rest.
  roots: ['<rootDir>/src', '<rootDir>/bench'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
});
