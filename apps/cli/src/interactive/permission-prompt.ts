import {
  type PermissionAnswer,
  type PermissionPrompt,
  type PermissionResolver,
  renderPermissionQuestion,
} from '@quiver/types';
import { terminalText } from '../output.js';
import { noPersonTerminal } from './person-terminal.js';

/** Asks on the terminal when a person sits at it (see noPersonTerminal); undefined (headless) otherwise. */
export function interactiveResolver(): PermissionResolver | undefined {
  if (noPersonTerminal() !== undefined || !process.stderr.isTTY) return undefined;
  return {
    async resolve(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionAnswer> {
      const { select, isCancel } = await import('@clack/prompts');
      // The question is rendered (and escaped) once, by the renderer every asking layer shares.
      const question = renderPermissionQuestion(prompt);
      const choice = await select({
        message: terminalText(question.text),
        options: question.choices.map((choice) => ({
          value: choice.value,
          label: terminalText(choice.label),
        })),
        signal,
      });
      if (isCancel(choice) || choice === 'deny') return { behavior: 'deny', reason: 'denied at the prompt' };
      return { behavior: 'allow', scope: choice as 'once' | 'session' | 'project' };
    },
  };
}
