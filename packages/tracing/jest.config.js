const { jestConfig } = require('../../jest.base.js');

module.exports = jestConfig(__dirname, 'tracing');
