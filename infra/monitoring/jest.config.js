const { jestConfig } = require('../../jest.base.js');

module.exports = jestConfig(__dirname, 'monitoring', {
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
});
