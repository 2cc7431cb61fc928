import { describe, expect, it } from 'vitest';
import { InMemorySessionState } from '../src/index.js';

describe('InMemorySessionState', () => {
  it('runs the disposer of every value still set when the session is disposed', async () => {
    const state = new InMemorySessionState();
    const disposed: string[] = [];
    state.set('shell', 'shell-1', (value) => {
      disposed.push(value);
    });
    state.set('watcher', 'watcher-1', async (value) => {
      disposed.push(value);
    });
    state.set('plain', 42);
    await state.dispose();
    expect(disposed.sort()).toEqual(['shell-1', 'watcher-1']);
    expect(state.get('plain')).toBeUndefined();
  });

  it('disposes a value replaced under the same key', async () => {
    const state = new InMemorySessionState();
    const disposed: string[] = [];
    state.set('shell', 'first', (value) => {
      disposed.push(value);
    });
    state.set('shell', 'second', (value) => {
      disposed.push(value);
    });
    expect(state.get('shell')).toBe('second');
    await state.dispose();
    expect(disposed).toEqual(['first', 'second']);
  });

  it('runs the remaining disposers when one fails, then reports the failure', async () => {
    const state = new InMemorySessionState();
    let ranSecond = false;
    state.set('a', 1, () => {
      throw new Error('cannot close');
    });
    state.set('b', 2, () => {
      ranSecond = true;
    });
    await expect(state.dispose()).rejects.toThrow(/1 session value disposer/);
    expect(ranSecond).toBe(true);
  });
});
