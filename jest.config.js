// One `pnpm test` runs every package's unit and integration tests.
module.exports = {
  reporters: ['default', '<rootDir>/jest-summary-reporter.js'],
  projects: [
    '<rootDir>/packages/domain',
    '<rootDir>/packages/contracts',
    '<rootDir>/packages/platform',
    '<rootDir>/packages/test-harness',
    '<rootDir>/services/replacement',
    '<rootDir>/services/management',
    '<rootDir>/infra/launcher',
  ],
};
