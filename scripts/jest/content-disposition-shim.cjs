// @fastify/static require()s the ESM-only content-disposition@3, which jest's CommonJS loader
// cannot do on Node 20. Tests get the CommonJS v0.5 (same header format) under both of its APIs.
const v0 = require('content-disposition-v0');

module.exports = Object.assign((filename, options) => v0(filename, options), v0, { create: v0, parse: v0.parse });
