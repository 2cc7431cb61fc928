import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { quiver, REPO, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-example-readme-');
afterEach(dirs.cleanup);

const README = path.join(REPO, 'examples/plugin-units/README.md');

/** The fenced blocks of a README after the heading `## Use it`, up to the next heading. */
function useItBlocks(): { yaml: string[]; sh: string[] } {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Use it'), text.indexOf('\n## ', text.indexOf('## Use it') + 1));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)];
  return {
    yaml: blocks.filter((block) => block[1] === 'yaml').map((block) => block[2] as string),
    sh: blocks.filter((block) => block[1] === 'sh').map((block) => block[2] as string),
  };
}

describe('the example plugin README', () => {
  it('works as written: its quiver.yaml (with the checkout path), personality and commands', async () => {
    const { yaml, sh } = useItBlocks();
    const [config, personality] = yaml;
    const workspace = dirs.make();
    write(path.join(workspace, 'quiver.yaml'), (config as string).replace('/path/to/quiver', REPO));
    write(path.join(workspace, 'personalities/default.yaml'), personality as string);
    expect(parse(personality as string).plugins).toContain('units');

    const lines = (sh[0] as string).split('\n');
    const call = lines.find((line) => line.startsWith('quiver call convert_units')) as string;
    const expected = lines[lines.indexOf(call) + 1]?.replace(/^# /, '');
    const args = /--args '([^']+)'/.exec(call)?.[1] as string;
    // `--trust-project` in place of the README's `quiver trust`, which asks on a terminal.
    const run = await quiver(['--trust-project', 'call', 'convert_units', '--args', args], {
      cwd: workspace,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(expected);
  });
});
