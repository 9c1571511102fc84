// Ready-made jest globalTeardown matching jest-global-setup.js (and any project's own global setup
// built on startTestStores/prepareTemplateDatabase): drops the run's template databases and stops
// the containers the setup started.
const { stopTestStores } = require('./src/index.ts');

module.exports = async function globalTeardown() {
  await stopTestStores();
};
