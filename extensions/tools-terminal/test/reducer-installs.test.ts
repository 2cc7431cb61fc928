import { describe, expect, it } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { expectSmallerKeeping } from './expect-reduced.js';
import { loadFixture } from './fixtures.js';

describe('install reduction', () => {
  it('keeps the 404 and the missing package name when npm install fails', () => {
    const reduced = expectSmallerKeeping('npm-install-missing', [
      'E404',
      'quiver-package-that-does-not-exist-7d3f',
    ]);
    expect(reduced).not.toContain('Unknown user config');
  });

  it('keeps the version that does not exist when npm cannot find it', () => {
    expectSmallerKeeping('npm-install-bad-version', [
      'ETARGET',
      'No matching version found for is-number@99.0.0',
    ]);
  });

  it('keeps the summary of a successful npm install', () => {
    expectSmallerKeeping('npm-install', ['added 2 packages']);
  });

  it('keeps the pnpm error code and the package it could not fetch', () => {
    expectSmallerKeeping('pnpm-add-missing', [
      'ERR_PNPM_FETCH_404',
      'quiver-package-that-does-not-exist-7d3f',
    ]);
  });

  it('keeps what pnpm added and drops its progress lines', () => {
    const reduced = expectSmallerKeeping('pnpm-add', ['+ is-number 7.0.0', 'Done in']);
    expect(reduced).not.toContain('Progress:');
  });

  it('keeps the package yarn could not find', () => {
    const reduced = expectSmallerKeeping('yarn-add-missing', [
      'Couldn\'t find package "quiver-package-that-does-not-exist-7d3f"',
    ]);
    expect(reduced).not.toContain('No license field');
  });

  it('keeps what yarn added', () => {
    const reduced = expectSmallerKeeping('yarn-add', ['is-number@7.0.0', 'Done in']);
    expect(reduced).not.toContain('[2/4] Fetching packages');
  });

  it('keeps the pip errors naming the missing distribution', () => {
    const reduced = expectSmallerKeeping('pip-install-missing', [
      'No matching distribution found for quiver-package-that-does-not-exist-7d3f',
    ]);
    expect(reduced).not.toContain('Looking in indexes');
  });

  it('does not treat the output of other npm commands as an install', () => {
    const fixture = loadFixture('npm-install-missing');
    expect(
      reduceTerminalOutput({ ...fixture, command: 'npm view quiver-package-that-does-not-exist-7d3f' }),
    ).toBe(fixture.output);
  });
});

describe('npm ls reduction', () => {
  it('keeps the top level and every problem with the packages that lead to it', () => {
    const reduced = expectSmallerKeeping('npm-ls-all-problems', [
      'npm-tree@1.0.0 /tmp/project/npm-tree',
      '3 top-level: jest@29.7.0, left-over@2.0.0 extraneous, mocha@11.8.0',
      'mocha@11.8.0 › debug@4.4.3 › UNMET DEPENDENCY ms@^2.1.3',
      'jest@29.7.0 › @jest/core@29.7.0 › chalk@4.1.2 › supports-color@1.0.0 invalid',
      'npm error missing: ms@^2.1.3, required by debug@4.4.3',
    ]);
    expect(reduced).not.toContain('A complete log of this run');
    expect(reduced).not.toContain('fsevents');
  });

  it('counts the healthy packages below the top level instead of listing them', () => {
    const reduced = expectSmallerKeeping('npm-ls-all-large', ['2 top-level: jest@29.7.0, mocha@11.8.0']);
    expect(reduced).toMatch(/\n\d+ deeper packages, not listed/);
    expect(reduced).not.toContain('problems');
  });

  it('names a missing top-level dependency and the package that requires it', () => {
    expectSmallerKeeping('npm-ls-missing', [
      'problems (1):\n  UNMET DEPENDENCY left-pad@^1.3.0',
      'npm error missing: left-pad@^1.3.0, required by npm-app@1.0.0',
    ]);
  });

  it('keeps the explanation of an npm usage error without its option list', () => {
    const reduced = expectSmallerKeeping('npm-ci-no-lockfile', [
      'npm error code EUSAGE',
      'can only install with an existing package-lock.json',
    ]);
    expect(reduced).not.toContain('--install-strategy');
  });

  it('keeps how to get past an externally managed Python', () => {
    expectSmallerKeeping('pip-install-externally-managed', [
      'error: externally-managed-environment',
      '× This environment is externally managed',
      'by passing --break-system-packages',
    ]);
  });
});
