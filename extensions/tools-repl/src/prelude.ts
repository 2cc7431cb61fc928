/**
 * Runs once in each fresh sandbox: takes the host bridge functions out of the global object
 * (the script reaches them only through `tools` and `console`), and defines how values print.
 */
export const SANDBOX_PRELUDE = String.raw`
(() => {
  const g = globalThis;
  const print = g.__quiver_print, list = g.__quiver_list, call = g.__quiver_call, search = g.__quiver_search;
  for (const name of ['__quiver_print', '__quiver_list', '__quiver_call', '__quiver_search']) delete g[name];
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
  const answer = (text) => {
    const result = JSON.parse(text);
    if (result.ok) return result.value;
    const error = new Error(result.error);
    error.name = 'ToolError';
    error.code = result.code;
    throw error;
  };
  const callTool = async (name, args) => {
    if (typeof name !== 'string') throw new TypeError('tools.call(name, args): name must be a string');
    return answer(await call(name, JSON.stringify(args === undefined ? {} : args)));
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
      return (args) => callTool(key, args);
    },
  });
  Object.defineProperty(g, '__quiver_run', {
    value: (promise) => Promise.resolve(promise).then((value) => (value === undefined ? '' : show(value))),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
`;
