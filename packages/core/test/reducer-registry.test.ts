import { ok, type QuiverError } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { DefaultToolResultReducerRegistry } from '../src/index.js';

describe('DefaultToolResultReducerRegistry', () => {
  it('finds a reducer by exact tool name only', () => {
    const reducers = new DefaultToolResultReducerRegistry();
    const reducer = { tool: 'terminal', reduce: () => ok('') };
    reducers.register(reducer);
    expect(reducers.get('terminal')).toBe(reducer);
    expect(reducers.get('terminal_bg')).toBeUndefined();
    expect(reducers.get('Terminal')).toBeUndefined();
    expect(reducers.list()).toEqual([reducer]);
  });

  it('refuses a second reducer for the same tool and accepts one after the first is unregistered', () => {
    const reducers = new DefaultToolResultReducerRegistry();
    const unregister = reducers.register({ tool: 'terminal', reduce: () => ok('') });
    let error: QuiverError | undefined;
    try {
      reducers.register({ tool: 'terminal', reduce: () => ok('') });
    } catch (caught) {
      error = caught as QuiverError;
    }
    expect(error?.code).toBe('duplicate_reducer');
    expect(error?.message).toContain('"terminal"');
    unregister();
    expect(reducers.list()).toEqual([]);
    expect(() => reducers.register({ tool: 'terminal', reduce: () => ok('') })).not.toThrow();
  });
});
