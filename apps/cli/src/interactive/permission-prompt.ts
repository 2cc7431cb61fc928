import type { PermissionAnswer, PermissionPrompt, PermissionResolver } from '@quiver/types';
import { terminalText } from '../output.js';
import { describeArguments } from './prompt-arguments.js';

/** Asks on the terminal when stdin and stderr are TTYs; undefined (headless) otherwise. */
export function interactiveResolver(): PermissionResolver | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return {
    async resolve(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionAnswer> {
      const { select, isCancel } = await import('@clack/prompts');
      const subject = describe(prompt);
      const choice = await select({
        message: terminalText(
          `Allow ${prompt.toolName}${subject ? `: ${subject}` : ''}?\n  ${prompt.decision.reason}`,
        ),
        options: [
          { value: 'once', label: 'Allow once' },
          { value: 'session', label: 'Allow for this session' },
          {
            value: 'project',
            label: `Always allow${prompt.decision.suggestedRule ? ` (${prompt.decision.suggestedRule})` : ''}`,
          },
          { value: 'deny', label: 'Deny' },
        ],
        signal,
      });
      if (isCancel(choice) || choice === 'deny') return { behavior: 'deny', reason: 'denied at the prompt' };
      return { behavior: 'allow', scope: choice as 'once' | 'session' | 'project' };
    },
  };
}

function describe(prompt: PermissionPrompt): string {
  const args = prompt.args as Record<string, unknown> | undefined;
  if (args && typeof args.command === 'string') return args.command;
  if (args && typeof args.path === 'string') return args.path;
  return describeArguments(prompt.args);
}
