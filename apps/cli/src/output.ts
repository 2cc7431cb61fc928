import { isQuiverError } from '@quiver/types';

/** Exit codes: 0 ok, 1 the tool call failed, 2 usage or config error. */
export const EXIT = { ok: 0, toolFailed: 1, usage: 2 } as const;

const useColor = () => !process.env.NO_COLOR && process.stdout.isTTY === true;

/** Quiver's own colours; the only escape sequences `terminalText` lets through. */
const COLOUR_CODES = new Set([0, 1, 2, 31, 32, 33, 36]);
const paint = (code: number) => (text: string) => (useColor() ? `\u001b[${code}m${text}\u001b[0m` : text);

/** `\uXXXX` per UTF-16 unit: visible on a terminal and still valid inside JSON strings. */
const escaped = (character: string) =>
  [...Array(character.length).keys()]
    .map((index) => `\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`)
    .join('');

/** Controls, bidi overrides, zero-width and tag characters: shown as escapes, never obeyed. */
const UNPRINTABLE =
  /\u001b\[([0-9]{1,2})m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/**
 * Text for a person's terminal. Text from outside (server descriptions and results, command
 * output, file contents) is data, never formatting: every control character except newline and
 * tab becomes a visible `\uXXXX` (no cursor moves, title or clipboard writes, links, bidi
 * overrides, hidden characters), and only Quiver's own colour codes survive, only when colour
 * is on. Every line the CLI prints goes through here.
 */
export function terminalText(text: string): string {
  return text.replace(UNPRINTABLE, (match, code: string | undefined) => {
    if (code === undefined) return escaped(match);
    return useColor() && COLOUR_CODES.has(Number(code)) ? match : `${escaped('\u001b')}${match.slice(1)}`;
  });
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
