import { expect } from 'vitest';
import { reduceTerminalOutput } from '../src/index.js';
import { loadFixture } from './fixtures.js';

function reduceFixture(name: string): { reduced: string; original: string } {
  const fixture = loadFixture(name);
  return { reduced: reduceTerminalOutput(fixture), original: fixture.output };
}

/** Reduces a captured fixture, checks it shrank and kept each fact, and returns the reduced text. */
export function expectSmallerKeeping(name: string, facts: (string | RegExp)[]): string {
  const { reduced, original } = reduceFixture(name);
  expect(reduced.length).toBeLessThan(original.length);
  for (const fact of facts) {
    if (typeof fact === 'string') expect(reduced).toContain(fact);
    else expect(reduced).toMatch(fact);
  }
  return reduced;
}
