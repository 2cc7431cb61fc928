import { isQuiverError } from '@quiver/types';

/** Exit codes: 0 ok, 1 the tool call failed, 2 usage or config error. */
export const EXIT = { ok: 0, toolFailed: 1, usage: 2 } as const;

const useColor = () => !process.env.NO_COLOR && process.stdout.isTTY === true;
const paint = (code: number) => (text: string) => (useColor() ? `\u001b[${code}m${text}\u001b[0m` : text);
export const color = {
  red: paint(31),
  green: paint(32),
  yellow: paint(33),
  dim: paint(2),
  bold: paint(1),
  cyan: paint(36),
};

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLine(text = ''): void {
  process.stdout.write(`${text}\n`);
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
    process.stderr.write(
      `${JSON.stringify({ error: { code: info.code, message: info.message, fix: info.fix } })}\n`,
    );
  } else {
    process.stderr.write(
      `${color.red(`error [${info.code}]`)} ${info.message}\n${info.fix ? `  ${color.dim('fix:')} ${info.fix}\n` : ''}`,
    );
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
