const { jestConfig } = require('../../jest.base.js');

module.exports = jestConfig(__dirname, 'test-harness', {
  globalSetup: '<rootDir>/jest-global-setup.js',
  globalTeardown: '<rootDir>/jest-global-teardown.js',
});
