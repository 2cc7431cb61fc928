import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-completion-');
afterEach(dirs.cleanup);

/** What bash offers after `words` (the last one being typed), with the script quiver printed. */
function bashCompletes(script: string, words: string[]): string[] {
  const dir = dirs.make();
  write(path.join(dir, 'quiver.bash'), script);
  const line = words.map((word) => `'${word}'`).join(' ');
  const output = execFileSync(
    'bash',
    [
      '-c',
      `source quiver.bash; COMP_WORDS=(quiver ${line}); COMP_CWORD=${words.length}; _quiver_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  return output.split('\n').filter(Boolean);
}

describe('quiver completion', () => {
  // bash is what the terminal tool runs: every machine Quiver runs on has it.
  it('completes commands, subcommands and options in bash', async () => {
    const run = await quiver(['completion', 'bash'], { cwd: dirs.make() });
    expect(run.code).toBe(0);
    expect(bashCompletes(run.stdout, ['to'])).toEqual(['tools']);
    expect(bashCompletes(run.stdout, ['mcp', ''])).toEqual(expect.arrayContaining(['review', 'login']));
    expect(bashCompletes(run.stdout, ['tools', '--exp'])).toEqual(['--explain']);
    expect(bashCompletes(run.stdout, ['--log-level', 'warn', 'trust', '--'])).toContain('--help');
    // One CLI run and four bash runs: room for a loaded machine.
  }, 90_000);

  it('prints zsh and fish scripts, and refuses another shell saying which exist', async () => {
    const cwd = dirs.make();
    const zsh = await quiver(['completion', 'zsh'], { cwd });
    expect(zsh.stdout).toMatch(/^#compdef quiver/);
    const fish = await quiver(['completion', 'fish'], { cwd });
    expect(fish.stdout).toContain("complete -c quiver -n '__fish_use_subcommand' -a tools");
    const json = await quiver(['completion', 'fish', '--json'], { cwd });
    expect(JSON.parse(json.stdout)).toEqual({ shell: 'fish', script: fish.stdout });
    const tcsh = await quiver(['completion', 'tcsh'], { cwd });
    expect(tcsh.code).toBe(2);
    expect(tcsh.stderr).toContain('Use one of: bash, zsh, fish.');
  });
});
