// jsdom without a network stack has no fetch: page tests that drive the real RTK Query API answer
// it with a fake fetch at the network boundary, so Node's own fetch classes are lent to the page.
// A browser resolves a relative URL against the page (jsdom: http://localhost/); Node's Request
// needs an absolute one, so the same resolution happens here. RTK Query hands its AbortSignal to
// Request, which takes only its own realm's signals: Node's AbortController comes along too.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetch extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const page = this.global.location.href;
    class PageRequest extends Request {
      constructor(input, init) {
        super(typeof input === 'string' ? new URL(input, page) : input, init);
      }
    }
    Object.assign(this.global, {
      Request: PageRequest,
      Response,
      Headers,
      ReadableStream,
      AbortController,
      AbortSignal,
      fetch: undefined,
    });
  }
}

module.exports = JsdomWithFetch;
