// light-my-request (behind fastify.inject) require()s the ESM-only cookie@2, which jest's CommonJS
// loader cannot do on Node 20. Tests get cookie@1 with the one v2 function it calls.
const v1 = require('cookie-v1');

module.exports = {
  ...v1,
  stringifySetCookie: (cookie) => v1.serialize(cookie.name, cookie.value, cookie),
};
