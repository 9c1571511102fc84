const { jestConfig } = require('../../jest.base.js');

// Unit tests only: the client is tested against the real started services in
// services/management/src/e2e/trackline-client.integration.test.ts.
module.exports = jestConfig(__dirname, 'client');
