import {
  type PermissionAnswer,
  type PermissionPrompt,
  type PermissionResolver,
  renderPermissionQuestion,
} from '@quiver/types';
import { color, terminalText } from '../output.js';

/**
 * The question with its change coloured: the diff lines were escaped by the renderer (and the
 * whole text again by terminalText) before any colour is added, so only Quiver's codes colour.
 */
export function colouredDiff(text: string, diff: readonly string[] | undefined): string {
  if (diff === undefined) return text;
  const lines = text.split('\n');
  const start = lines.lastIndexOf('Change:');
  if (start < 0) return text;
  return lines
    .map((line, index) =>
      index <= start
        ? line
        : line.startsWith('    - ')
          ? color.red(line)
          : line.startsWith('    + ')
            ? color.green(line)
            : line,
    )
    .join('\n');
}

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
        message: colouredDiff(terminalText(question.text), question.diff),
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
