import { isQuiverError, visibleText } from '@quiver/types';
import { EXIT } from './exit-codes.js';

export { EXIT };

const useColor = () => !process.env.NO_COLOR && process.stdout.isTTY === true;

/** Quiver's own colours; the only escape sequences `terminalText` lets through. */
const COLOUR_CODES = new Set([0, 1, 2, 31, 32, 33, 36]);
const paint = (code: number) => (text: string) => (useColor() ? `\u001b[${code}m${text}\u001b[0m` : text);

/** Quiver's own colour codes, the only escape sequences that may reach a terminal as such. */
const COLOUR = /\u001b\[([0-9]{1,2})m/g;

/**
 * Text for a person's terminal. Text from outside (server descriptions and results, command
 * output, file contents) is data, never formatting: `visibleText` (the one escaping Quiver has,
 * in `@quiver/types`) shows every control, bidi, zero-width and other invisible character as a
 * visible `\uXXXX` (no cursor moves, title or clipboard writes, links, bidi overrides, hidden
 * characters), newline and tab excepted; only Quiver's own colour codes survive, only when
 * colour is on. Every line the CLI prints goes through here.
 */
export function terminalText(text: string): string {
  if (!useColor()) return visibleText(text, { keepLineBreaks: true });
  let shown = '';
  let from = 0;
  for (const match of text.matchAll(COLOUR)) {
    if (!COLOUR_CODES.has(Number(match[1]))) continue;
    shown += visibleText(text.slice(from, match.index), { keepLineBreaks: true }) + match[0];
    from = match.index + match[0].length;
  }
  return shown + visibleText(text.slice(from), { keepLineBreaks: true });
}

/** Writes a line to stderr through `terminalText`. */
export function printError(text: string): void {
  process.stderr.write(`${terminalText(text)}\n`);
}
export const color = {
  red: paint(31),
  green: paint(32),
  yellow: paint(33),
  dim: paint(2),
  bold: paint(1),
  cyan: paint(36),
};

export function printJson(value: unknown): void {
  process.stdout.write(`${terminalText(JSON.stringify(value, null, 2))}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${terminalText(text)}\n`);
}

/** A user-facing error: `[code] message`, then how to fix it. Exit code 2 unless given. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
    readonly exitCode: number = EXIT.usage,
    readonly code = 'usage',
  ) {
    super(message);
  }
}

export function reportError(error: unknown, json: boolean): number {
  const info = isQuiverError(error)
    ? { code: error.code, message: error.message, fix: error.fix, exitCode: EXIT.usage }
    : error instanceof CliError
      ? { code: error.code, message: error.message, fix: error.fix, exitCode: error.exitCode }
      : {
          code: 'internal',
          message: (error as Error)?.stack ?? String(error),
          fix: undefined,
          exitCode: EXIT.usage,
        };
  if (json) {
    printError(JSON.stringify({ error: { code: info.code, message: info.message, fix: info.fix } }));
  } else {
    printError(`${color.red(`error [${info.code}]`)} ${info.message}`);
    if (info.fix) printError(`  ${color.dim('fix:')} ${info.fix}`);
  }
  return info.exitCode;
}

export function parseJsonArgs(text: string | undefined, flag = '--args'): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${flag} is not valid JSON: ${(error as Error).message}`,
      `Pass a JSON object, e.g. ${flag} '{"path":"README.md"}'.`,
    );
  }
}
