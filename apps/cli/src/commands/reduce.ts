import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolResult } from '@quiver/types';
import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { CliError, parseJsonArgs, printJson, printLine } from '../output.js';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new CliError(
      'quiver reduce reads the raw output from standard input.',
      'Pipe it in: `npm test 2>&1 | quiver reduce terminal --args \'{"command":"npm test"}\' --exit-code 1`.',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function withoutPath(result: ToolResult, spillFile: string): ToolResult {
  const name = '<spill file>';
  const structured = { ...(result.structured as Record<string, unknown>), spillFile: name };
  return result.ok
    ? { ...result, value: result.value.replaceAll(spillFile, name), structured }
    : { ...result, error: result.error.replaceAll(spillFile, name), structured };
}

export function registerReduceCommand(program: Command): void {
  program
    .command('reduce')
    .description(
      "Print exactly what the model would receive for a tool's raw output (its reducer, then the budget trim).",
    )
    .argument('<tool>', 'tool whose reducer to apply, e.g. terminal')
    .option('-a, --args <json>', 'the call arguments (terminal: {"command": "…"})', '{}')
    .option('--exit-code <n>', 'exit code of the command (terminal); non-zero makes it a failed result')
    .option('-p, --personality <name|path>', 'personality (its result budget applies)')
    .option('--json', 'print the whole result as JSON')
    .action(
      async (
        tool: string,
        options: { args: string; exitCode?: string; personality?: string; json?: boolean },
        command: Command,
      ) => {
        const args = parseJsonArgs(options.args) as Record<string, unknown>;
        const exitCode = options.exitCode === undefined ? undefined : Number(options.exitCode);
        if (exitCode !== undefined && !Number.isInteger(exitCode)) {
          throw new CliError(
            `--exit-code must be a whole number, got "${options.exitCode}".`,
            'Pass the exit status of the command, e.g. --exit-code 1.',
          );
        }
        const raw = await readStdin();
        const quiver = await openQuiver(globalOptions(command), options);
        // A long output is spilled as the terminal spills it, so its summary counts all of it.
        const spillDir = mkdtempSync(path.join(os.tmpdir(), 'quiver-reduce-'));
        try {
          const { resultFromRawOutput } = await import('@quiver/wiring');
          const { trimResult } = await import('@quiver/core');
          const policy = quiver.host.policy(options.personality);
          let result: ToolResult = await resultFromRawOutput(tool, {
            output: raw,
            args,
            ...(exitCode !== undefined ? { exitCode } : {}),
            spillDir,
          });
          const reducer = quiver.host.reducers.get(tool);
          if (reducer) {
            try {
              const reduced = reducer.reduce(result, { toolName: tool, args });
              const length = (r: ToolResult) => (r.ok ? r.value : r.error).length;
              if (length(reduced) <= length(result))
                result = {
                  ...reduced,
                  ...(result.structured !== undefined && reduced.structured === undefined
                    ? { structured: result.structured }
                    : {}),
                };
            } catch {
              // The registry keeps the original result when a reducer throws; so do we.
            }
          }
          result = trimResult(result, policy.budget.resultChars);
          // The spill file is removed below: name it for what it was rather than print a dead path.
          const spillFile = (result.structured as { spillFile?: unknown } | undefined)?.spillFile;
          if (typeof spillFile === 'string') result = withoutPath(result, spillFile);
          if (options.json) printJson({ reducer: reducer ? tool : null, result });
          else printLine(result.ok ? result.value : result.error);
        } finally {
          rmSync(spillDir, { recursive: true, force: true });
          await quiver.close();
        }
      },
    );
}
