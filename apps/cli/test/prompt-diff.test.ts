import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect } from 'vitest';
import { BIN, tempDirs, write } from './helpers.js';
import { letters } from './trust-terminal.js';

const dirs = tempDirs('quiver-prompt-diff-');
afterEach(dirs.cleanup);

/**
 * `quiver ARGS` on a pseudo-terminal (util-linux `script`), answering "Allow once"; resolves with
 * what the terminal received, the prompt's gutter and the pty's line breaks taken out.
 */
function allowOnceOnTerminal(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} ${quoted}`, '/dev/null'], {
      cwd,
      env: { ...process.env, ...env },
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && letters(output).includes('Allowonce')) {
        answered = true;
        setTimeout(() => child.stdin.write('\r'), 300);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(output.replace(/\r\n/g, '').replaceAll('\u001b[36m│\u001b[39m  ', ''));
    });
  });
}

describe('the terminal prompt for an edit', () => {
  itWithSystemTools(['script'])(
    'shows the change as a coloured diff whose text from the file and the model is escaped before it is coloured',
    async () => {
      const workspace = dirs.make();
      write(path.join(workspace, 'quiver.yaml'), 'workspace: .\n');
      write(
        path.join(workspace, 'personalities/default.yaml'),
        'plugins: [tools-code]\npermissions:\n  ask: [edit_file]\n',
      );
      write(path.join(workspace, 'notes.txt'), 'hello world\nsecond line\n');
      const edit = { path: 'notes.txt', old_string: 'hello world', new_string: 'hello \u001b[2Jthere' };
      const screen = await allowOnceOnTerminal(workspace, { XDG_DATA_HOME: dirs.make() }, [
        '--trust-project',
        'call',
        'edit_file',
        '--args',
        JSON.stringify(edit),
      ]);
      expect(screen).toContain('Change:\u001b[31m    - hello world\u001b[0m');
      // The model's escape sequence reaches the terminal as text, inside Quiver's green.
      expect(screen).toContain('\u001b[32m    + hello \\u001b[2Jthere\u001b[0m');
      expect(screen).not.toContain('\u001b[2J');
      expect(readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe(
        'hello \u001b[2Jthere\nsecond line\n',
      );
    },
    60_000,
  );
});
