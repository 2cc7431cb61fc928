import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const directory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export interface Fixture {
  command: string;
  exitCode: number;
  output: string;
}

/** A line a developer needs from an output; a budgeted one may give way at a small budget. */
export interface Fact {
  text: string;
  budgeted: boolean;
}

/** The names of every captured fixture (each a NAME.txt with a NAME.json). */
export function fixtureNames(): string[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

/** A real output captured by scripts/capture-*.sh, with the command and exit code it came from. */
export function loadFixture(name: string): Fixture {
  const meta = JSON.parse(readFileSync(path.join(directory, `${name}.json`), 'utf8')) as {
    command: string;
    exitCode: number;
  };
  return {
    command: meta.command,
    exitCode: meta.exitCode,
    output: readFileSync(path.join(directory, `${name}.txt`), 'utf8'),
  };
}

/**
 * NAME.facts: one fact a line, copied from the raw output; `~ ` before a fact marks it as a detail
 * kept only while the budget allows. A missing file has no facts.
 */
export function loadFacts(name: string): Fact[] {
  let text: string;
  try {
    text = readFileSync(path.join(directory, `${name}.facts`), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) =>
      line.startsWith('~ ') ? { text: line.slice(2), budgeted: true } : { text: line, budgeted: false },
    );
}
