import { spawn } from 'node:child_process';
import { BIN, TEST_XDG_DATA_HOME } from './helpers.js';

/** The letters of terminal output: a prompt's drawing splits words apart with escapes. */
export function letters(text: string): string {
  return text
    .replace(/\r\n/g, '')
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/[^A-Za-z]/g, '');
}

/**
 * Runs `quiver trust` on a pseudo-terminal (util-linux `script`), as a person does, and answers
 * `answer` (default yes); resolves with the letters it printed.
 */
export function trustOnTerminal(
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: { answer?: string; args?: string[] } = {},
): Promise<string> {
  const args = ['trust', ...(options.args ?? [])].join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} ${args}`, '/dev/null'], {
      cwd,
      env: { ...process.env, XDG_DATA_HOME: TEST_XDG_DATA_HOME, ...env },
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && letters(output).includes('Trustthisconfiguration')) {
        answered = true;
        child.stdin.write(options.answer ?? 'y');
        setTimeout(() => child.stdin.write('\r'), 200);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(letters(output));
    });
  });
}
