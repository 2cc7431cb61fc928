import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { analyzeShellCommand } from '../src/index.js';

/** The arguments bash really passes: each word printed on its own line, NUL-separated. */
function bashWords(words: string): string[] {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', `printf '%s\\0' ${words}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .split('\0')
    .slice(0, -1);
}

describe('the strict reader of the provable subset', () => {
  it.each([
    `plain 'single quoted' "double quoted" mixed"dq"'sq'plain`,
    String.raw`'it''s' "a # b" a#b "esc\"aped" "back\\slash" "keeps \n and \x"`,
    String.raw`a\ b \# \; \| \& \' \" \\ --flag=v"al"ue HEAD~1 HEAD^ a=b:c,d@e%f+g`,
    String.raw`"é ü" '日本' "{}" {} x{}y '$HOME' '$(not)' \$HOME`,
  ])('reads the same words as bash in %s', async (words) => {
    const analysis = await analyzeShellCommand(`printf '%s\\0' ${words}`);
    expect(analysis.unproven).toEqual([]);
    expect(analysis.commands[0]?.argv.slice(2)).toEqual(bashWords(words));
  });

  it.each([
    ['echo $HOME', 'a variable expansion', 5],
    ['echo ok; $(touch x)', 'a command substitution', 9],
    ["echo $'\\''; touch x", "an ANSI-C string $'…'", 5],
    ['echo a\vb; ls', 'character U+000B', 6],
    ['echo a\r#b; ls', 'character U+000D', 6],
    ['ls *.ts | sh', undefined, undefined],
    ['/usr/bin/tou?h x', 'a glob in the command name', 0],
    ['{ls,x}', 'a brace (group or brace expansion)', 0],
    ['(ls)', '"(" (a subshell, function or array)', 0],
    ['if true; then ls; fi', 'the reserved word "if"', 0],
    ['ls & touch x', 'a background job "&"', 3],
    [
      'cat <<E"OF"\nx\nEOF\ntouch y\nE"OF"',
      'a here-document whose delimiter is not one quoted plain word',
      4,
    ],
    ['echo ~/x', 'a tilde expansion', 5],
    ['ls 12>x', 'a redirection of a descriptor above 9', 3],
  ])('names the construct and its offset in %j', async (command, construct, start) => {
    const analysis = await analyzeShellCommand(command);
    if (construct === undefined) {
      expect(analysis.unproven).toEqual([]);
      return;
    }
    expect(analysis.unproven[0]).toMatchObject({ construct, start });
    const first = analysis.unproven[0];
    expect(command.slice(first?.start, first?.end)).toBe(first?.text);
  });

  it('reports the payload of bash -c as the range of a construct nested in it', async () => {
    const command = `bash -c 'echo $HOME'`;
    const analysis = await analyzeShellCommand(command);
    expect(analysis.unproven).toEqual([
      { construct: 'a variable expansion', start: 8, end: 20, text: `'echo $HOME'` },
    ]);
  });

  it('asks when the grammar and the strict reader split a command differently', async () => {
    const analysis = await analyzeShellCommand("cat <<'A' <<'B'\na\nA\nb\nB");
    expect(analysis.unproven.length).toBeGreaterThan(0);
  });

  it('reads the body of a here-document with a quoted delimiter as text, up to the delimiter line', async () => {
    const analysis = await analyzeShellCommand("cat <<'EOF' | wc -l\n$(touch x) `id`\nEOF\nls");
    expect(analysis.unproven).toEqual([]);
    expect(analysis.commands.map((entry) => entry.argv[0]).sort()).toEqual(['cat', 'ls', 'wc']);
  });
});
