import { headlessDenial } from '@quiver/permissions';
import type { PermissionAnswer, PermissionPrompt, PermissionResolver } from '@quiver/types';
import type { ConsoleHub } from './console-hub.js';

/**
 * Who answers an ask: the client's own prompt when it can show one, else a connected console
 * page (bounded wait), else nobody: denied as a headless session denies, naming the rule that
 * would allow the call and the console that could answer it.
 */
export class ConsolePermissionResolver implements PermissionResolver {
  readonly #hub: ConsoleHub;
  readonly #client: () => PermissionResolver | undefined;
  readonly #sessionId: () => string | undefined;

  constructor(options: {
    hub: ConsoleHub;
    /** The client's own way of asking (serve's elicitation, rpc's relay), when it has one now. */
    client?: () => PermissionResolver | undefined;
    sessionId?: () => string | undefined;
  }) {
    this.#hub = options.hub;
    this.#client = options.client ?? (() => undefined);
    this.#sessionId = options.sessionId ?? (() => undefined);
  }

  resolve(prompt: PermissionPrompt, signal: AbortSignal): Promise<PermissionAnswer> {
    const client = this.#client();
    if (client) return client.resolve(prompt, signal);
    if (this.#hub.pageConnected) return this.#hub.ask(prompt, signal, this.#sessionId());
    return Promise.resolve(nobodyToAsk(prompt));
  }
}

function nobodyToAsk(prompt: PermissionPrompt): PermissionAnswer {
  const { toolName, decision } = prompt;
  const asked = decision.subjects?.filter((entry) => entry.behavior === 'ask').map((entry) => entry.subject);
  const denial = headlessDenial(toolName, asked?.length ? asked.join(', ') : toolName, {
    ...decision,
    suggestedRule: decision.suggestedRule ?? toolName,
  });
  // The runtime says "<tool> was denied: " before the reason; the renderer's opening would repeat it.
  const opening = `Permission to run ${toolName} was denied: `;
  const reason = denial.reason.startsWith(opening) ? denial.reason.slice(opening.length) : denial.reason;
  return {
    behavior: 'deny',
    reason: `${reason} Or answer such asks in the page \`quiver console\` opens (none was open).`,
  };
}
