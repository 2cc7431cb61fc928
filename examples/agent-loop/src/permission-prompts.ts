import { createInterface } from 'node:readline/promises';
import {
  type PermissionAnswer,
  type PermissionPrompt,
  type PermissionResolver,
  renderPermissionQuestion,
} from '@quiver/types';

/**
 * How the question reads on a terminal: Quiver's one renderer of what a person is asked — what
 * would run, every subject that needs approval and why, the rule "always" would add — with the
 * model's text escaped, so a bidi override or an escape sequence cannot hide what runs.
 */
export function describePrompt(prompt: PermissionPrompt): string {
  return renderPermissionQuestion(prompt).text;
}

/** Events reach subscribers on microtasks; yielding first prints `permission.requested` before the question. */
const eventsDelivered = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Answers every prompt with `decide`, printing the question and the answer, for demos and tests. */
export function scriptedPermissionResolver(
  decide: (prompt: PermissionPrompt) => PermissionAnswer,
  print: (line: string) => void,
): PermissionResolver {
  return {
    async resolve(prompt) {
      await eventsDelivered();
      const answer = decide(prompt);
      print(`? ${describePrompt(prompt)}`);
      print(`  → ${answer.behavior === 'allow' ? `allow (${answer.scope})` : 'deny'} [scripted answer]`);
      return answer;
    },
  };
}

/** Asks on the terminal. Only for a TTY: without one, a readline question never gets an answer. */
export function terminalPermissionResolver(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): PermissionResolver {
  return {
    async resolve(prompt, signal) {
      await eventsDelivered();
      const readline = createInterface({ input, output });
      try {
        const reply = await readline.question(
          `? ${describePrompt(prompt)}\n  [y] once, [s] this session, [N] deny: `,
          { signal },
        );
        const key = reply.trim().toLowerCase();
        if (key === 'y' || key === 'yes') return { behavior: 'allow', scope: 'once' };
        if (key === 's') return { behavior: 'allow', scope: 'session' };
        return { behavior: 'deny', reason: 'The user said no.' };
      } finally {
        readline.close();
      }
    },
  };
}
