import { describe, expect, it } from 'vitest';
import { fuzzCommand } from './fuzz-run.js';
import { minimizeCommand } from './minimize.js';

const seeds = ['git status', 'ls -la src; echo "a # b"'];

describe('the command generator', () => {
  it('makes the same commands from the same seed, so that a run can be resumed and reproduced', () => {
    const first = Array.from({ length: 200 }, (_, index) => fuzzCommand(42, index, seeds));
    const again = Array.from({ length: 200 }, (_, index) => fuzzCommand(42, index, seeds));
    expect(again).toEqual(first);
    expect(fuzzCommand(42, 150, seeds)).toBe(first[150]);
  });

  it('makes different commands from different seeds and covers many constructs', () => {
    const one = Array.from({ length: 500 }, (_, index) => fuzzCommand(1, index, seeds));
    const two = Array.from({ length: 500 }, (_, index) => fuzzCommand(2, index, seeds));
    expect(one).not.toEqual(two);
    const all = one.join('\n');
    for (const construct of ['<<', '$(', '`', '${', '$((', "$'", '#', 'env ', 'GIT_', 'npm_config_', '\v'])
      expect(all, `no generated command holds ${JSON.stringify(construct)}`).toContain(construct);
  });
});

describe('the minimizer', () => {
  it('shrinks a command to the characters the failure needs', async () => {
    const failing = 'git status --short; echo hi && touch canary-7 | ls';
    const minimal = await minimizeCommand(failing, async (candidate) => /touch/.test(candidate));
    expect(minimal).toBe('touch');
  });

  it('keeps the command whole when no smaller one fails', async () => {
    const minimal = await minimizeCommand('ls; rm x', async (candidate) => candidate === 'ls; rm x');
    expect(minimal).toBe('ls; rm x');
  });

  it('stops after its budget of runs', async () => {
    let runs = 0;
    const command = Array.from({ length: 400 }, (_, index) => String.fromCharCode(33 + (index % 90))).join(
      '',
    );
    await minimizeCommand(
      command,
      async () => {
        runs++;
        return false;
      },
      25,
    );
    expect(runs).toBe(25);
  });
});
