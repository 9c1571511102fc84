// One `pnpm test` runs every package's unit and integration tests.
module.exports = {
  reporters: ['default', '<rootDir>/jest-summary-reporter.js'],
  // testTimeout is a global option: set here it applies to every project of the root run. Integration
  // tests start servers and Redis processes on a shared 2-core machine; a hung test still ends.
  testTimeout: 30_000,
  projects: [
    '<rootDir>/packages/domain',
    '<rootDir>/packages/contracts',
    '<rootDir>/packages/platform',
    '<rootDir>/packages/tracing',
    '<rootDir>/packages/test-harness',
    '<rootDir>/packages/client',
    '<rootDir>/services/replacement',
    '<rootDir>/services/management',
    '<rootDir>/infra/launcher',
    '<rootDir>/infra/monitoring',
  ],
};
