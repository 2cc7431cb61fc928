import type { ClientCapabilities, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import {
  type PermissionAnswer,
  type PermissionPrompt,
  type PermissionResolver,
  renderPermissionQuestion,
} from '@quiver/types';
import { personAnswerOptions } from './person-answer.js';

/** Sends one elicitation request related to the MCP request that is being handled. */
export type ElicitForm = (
  params: ElicitRequestFormParams,
  options: { signal: AbortSignal; timeout: number },
) => Promise<ElicitResult>;

/** Form elicitation is what we send; a bare `elicitation: {}` predates modes and means form. */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (!elicitation) return false;
  return Object.keys(elicitation).length === 0 || elicitation.form !== undefined;
}

/**
 * Answers permission asks by asking the MCP client's user through form elicitation. The
 * runtime knows calls by id, the SDK knows requests by context, so each tools/call binds its
 * call id to the request's elicitation channel while it runs.
 */
export class ElicitationPermissionResolver implements PermissionResolver {
  readonly #channels = new Map<string, ElicitForm>();

  bind(callId: string, elicit: ElicitForm): () => void {
    this.#channels.set(callId, elicit);
    return () => this.#channels.delete(callId);
  }

  async resolve(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionAnswer> {
    const elicit = this.#channels.get(prompt.callId);
    if (!elicit)
      return {
        behavior: 'deny',
        reason: 'no MCP request is waiting for this call, so nobody could be asked',
      };
    const result = await elicit(permissionForm(prompt), personAnswerOptions(signal));
    if (result.action !== 'accept')
      return { behavior: 'deny', reason: `the user chose ${result.action} when asked` };
    const choice = result.content?.decision;
    if (choice === 'once' || choice === 'session' || choice === 'project')
      return { behavior: 'allow', scope: choice };
    return { behavior: 'deny', reason: 'denied by the user' };
  }
}

/**
 * The form a person answers: the question as the shared renderer puts it (every subject that
 * needs approval, escaped; the rule "Always allow" adds), its answers as the choices.
 */
function permissionForm(prompt: PermissionPrompt): ElicitRequestFormParams {
  const question = renderPermissionQuestion(prompt);
  return {
    mode: 'form',
    message: question.text,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          oneOf: question.choices.map((choice) => ({ const: choice.value, title: choice.label })),
          default: 'deny',
        },
      },
      required: ['decision'],
    },
  };
}
