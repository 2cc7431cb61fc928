import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const directory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export interface Fixture {
  command: string;
  exitCode: number;
  output: string;
}

/** A real output captured by scripts/capture-fixtures.sh, with the command and exit code it came from. */
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
