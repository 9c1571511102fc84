// Ready-made jest globalSetup for a project whose integration tests need PostgreSQL and Redis but no
// migrated template: `globalSetup: require.resolve('@trackline/test-harness/jest-global-setup')`.
// It loads the harness from source; jest runs global setup files through the project's transform,
// which also compiles the TypeScript they require, so no build is needed first.
const { startTestStores } = require('./src/index.ts');

module.exports = async function globalSetup() {
  await startTestStores();
};
