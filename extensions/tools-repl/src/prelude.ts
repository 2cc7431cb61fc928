/**
 * Runs once in each fresh sandbox: takes the host bridge functions out of the global object
 * (the script reaches them only through `tools`, `console` and the timers), and defines how
 * values print and how a script's result leaves the sandbox.
 */
export const SANDBOX_PRELUDE = String.raw`
(() => {
  const g = globalThis;
  const names = ['__quiver_print', '__quiver_list', '__quiver_timer', '__quiver_bind'];
  const [print, list, timerHost, bind] = names.map((name) => g[name]);
  for (const name of names) delete g[name];
  // A call or search is numbered here and queued; the host takes the queue (take) each time the
  // script stops running, so a call costs no call out of the sandbox. Its answer's text comes
  // back through settle, which resolves the promise kept under its number. decode, when a call
  // has one, turns the text into the call's value (or throws its error) right here, so the
  // script's await takes the value itself: no further promise step per call.
  const waiting = new Map();
  let nextId = 0;
  let queue = [];
  const settle = (id, text) => {
    const entry = waiting.get(id);
    if (entry === undefined) return;
    waiting.delete(id);
    if (entry.decode === undefined) entry.resolve(text);
    else {
      try {
        entry.resolve(entry.decode(text));
      } catch (error) {
        entry.reject(error);
      }
    }
  };
  // The queued requests as a JSON array of strings, four a request: kind, number, name or query,
  // arguments or limit; '' when there are none.
  const stringify = JSON.stringify;
  const take = () => {
    if (queue.length === 0) return '';
    const text = stringify(queue);
    queue = [];
    return text;
  };
  bind(settle, take);
  const awaiting = (id, decode) => new Promise((resolve, reject) => { waiting.set(id, { resolve, reject, decode }); });
  const ask = (kind, first, second, decode) => {
    const id = ++nextId;
    const at = queue.length;
    queue[at] = kind;
    queue[at + 1] = '' + id;
    queue[at + 2] = first;
    queue[at + 3] = second;
    return awaiting(id, decode);
  };
  const search = (query, limit) => ask('s', query, String(limit));
  const timer = (ms) => {
    const id = ++nextId;
    timerHost(id, ms);
    return awaiting(id);
  };
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value === undefined) return 'undefined';
    if (typeof value === 'function') return '[Function ' + (value.name || 'anonymous') + ']';
    if (value instanceof Error) return value.name + ': ' + value.message;
    try {
      const text = JSON.stringify(value, null, 2);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  };
  const log = (...values) => { print(values.map(show).join(' ') + '\n'); };
  g.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });

  let nextTimer = 0;
  const cancelled = new Set();
  const schedule = (fn, ms, args, repeat) => {
    if (typeof fn !== 'function') throw new TypeError('setTimeout/setInterval: the first argument must be a function');
    const id = ++nextTimer;
    const delay = Math.max(0, Number(ms) || 0);
    const tick = () => timer(delay).then(() => {
      if (cancelled.has(id)) { cancelled.delete(id); return; }
      fn(...args);
      if (repeat) tick();
    });
    tick();
    return id;
  };
  const cancel = (id) => { if (typeof id === 'number' && id > 0 && id <= nextTimer) cancelled.add(id); };
  g.setTimeout = (fn, ms, ...args) => schedule(fn, ms, args, false);
  g.setInterval = (fn, ms, ...args) => schedule(fn, ms, args, true);
  g.clearTimeout = cancel;
  g.clearInterval = cancel;

  // An answer is one string: the JSON of the outcome on its first line, the tool's text after it.
  // A plain text result (the most common answer) has always the same first line.
  const TEXT_ONLY = '{"ok":true,"textAt":"value"}';
  const answer = (whole, asText) => {
    const cut = whole.indexOf('\n');
    const head = cut < 0 ? whole : whole.slice(0, cut);
    const text = cut < 0 ? '' : whole.slice(cut + 1);
    if (head === TEXT_ONLY) return text;
    const result = JSON.parse(head);
    if (result.ok) {
      if (asText) return text;
      if (result.textAt === 'value') return text;
      if (result.textAt === 'field') result.value.text = text;
      return result.value;
    }
    const error = new Error(result.error);
    error.name = 'ToolError';
    error.code = result.code;
    if (result.structured !== undefined) error.structured = result.structured;
    throw error;
  };
  const asValue = (whole) => answer(whole, false);
  const asText = (whole) => answer(whole, true);
  const callTool = (name, args, options) => {
    if (typeof name !== 'string') return Promise.reject(new TypeError('tools.call(name, args): name must be a string'));
    const text = options !== undefined && options !== null && options.text === true;
    let json;
    try {
      json = JSON.stringify(args === undefined ? {} : args);
    } catch (error) {
      return Promise.reject(error);
    }
    return ask('c', name, json, text ? asText : asValue);
  };
  const own = Object.freeze({
    call: callTool,
    search: async (query, limit = 10) => JSON.parse(await search(String(query), Number(limit) || 10)),
    list: () => JSON.parse(list()),
  });
  g.tools = new Proxy(Object.freeze({}), {
    get(_, key) {
      if (typeof key !== 'string' || key === 'then' || key === 'toJSON') return undefined;
      if (Object.prototype.hasOwnProperty.call(own, key)) return own[key];
      return (args, options) => callTool(key, args, options);
    },
  });
  // The result leaves as text: "s" and a string, "j" and JSON, or "x" and what prints of it.
  const encode = (value) => {
    if (value === undefined) return 's';
    if (typeof value === 'string') return 's' + value;
    if (typeof value === 'function' || value instanceof Error) return 'x' + show(value);
    try {
      const text = JSON.stringify(value);
      return text === undefined ? 'x' + String(value) : 'j' + text;
    } catch {
      return 'x' + String(value);
    }
  };
  Object.defineProperty(g, '__quiver_run', {
    value: (promise) => Promise.resolve(promise).then(encode),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
`;
