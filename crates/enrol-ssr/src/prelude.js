// The few globals the page bundle needs beyond ECMAScript, for QuickJS.
(function (log) {
  const text = (args) => args.map((a) => (a instanceof Error ? a.stack || String(a) : typeof a === 'object' ? JSON.stringify(a) : String(a))).join(' ');
  globalThis.console = {
    debug: (...a) => log(0, text(a)),
    log: (...a) => log(1, text(a)),
    info: (...a) => log(1, text(a)),
    warn: (...a) => log(2, text(a)),
    error: (...a) => log(3, text(a)),
  };
  // Enough of URL for routers resolving paths against the page's own origin.
  const shape = /^([a-z][a-z0-9+.-]*:)?(?:\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/i;
  globalThis.URL = class URL {
    constructor(href, base) {
      let m = shape.exec(String(href));
      if (!m[1] && base !== undefined) {
        const b = new URL(base);
        const path = m[3].startsWith('/') ? m[3] : b.pathname.replace(/[^/]*$/, '') + m[3];
        m = shape.exec(b.protocol + '//' + b.host + path + (m[4] || '') + (m[5] || ''));
      }
      if (!m[1]) throw new TypeError('Invalid URL: ' + href);
      this.protocol = m[1].toLowerCase();
      this.host = m[2] || '';
      this.hostname = this.host.replace(/:\d+$/, '');
      this.port = (/:(\d+)$/.exec(this.host) || [])[1] || '';
      this.pathname = m[3] || '/';
      this.search = m[4] && m[4].length > 1 ? m[4] : '';
      this.hash = m[5] && m[5].length > 1 ? m[5] : '';
      this.origin = this.protocol + '//' + this.host;
    }
    get href() {
      return this.origin + this.pathname + this.search + this.hash;
    }
    toString() {
      return this.href;
    }
    toJSON() {
      return this.href;
    }
  };
})(globalThis.__enrolLog);
delete globalThis.__enrolLog;
