import type {
  ClientCapabilities,
  CreateMessageRequest,
  ElicitRequestFormParams,
  ElicitResult,
  RequestOptions,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import {
  type ClientRelayHandle,
  type ElicitationOutcome,
  type RelayedRequest,
  type RelayRefusal,
  type RootsOutcome,
  relayedAsker,
  renderRelayedQuestion,
  type SamplingOutcome,
  visibleText,
} from '@quiver/types';
import { supportsFormElicitation } from './permission-elicitation.js';
import type { PermissionRound, RelayedInputKind } from './permission-rounds.js';
import { personAnswerOptions } from './person-answer.js';

/** What serve can send to its client within the MCP request of one tools/call. */
export interface RequestChannel {
  elicitInput(params: ElicitRequestFormParams, options?: RequestOptions): Promise<ElicitResult>;
  requestSampling(params: CreateMessageRequest['params'], options?: RequestOptions): Promise<unknown>;
  listRoots?(options?: RequestOptions): Promise<{ roots: Array<{ uri: string; name?: string }> }>;
  /**
   * A 2026-07-28 request, which has no server-to-client requests: a question is kept for the
   * call's input-required result and answered from the client's next request (permission-rounds.ts).
   */
  round?: PermissionRound;
}

const INPUT_REQUIRED =
  'the question went back to the MCP client in an input-required result; the call runs again with its answer';

/**
 * Relays a bridged server's questions and sampling requests to serve's own MCP client, within
 * the tools/call request that made the bridged call, when the client declared the capability.
 * Otherwise refuses, saying so: Quiver never answers for the client.
 */
export class ServeClientRelay implements ClientRelayHandle {
  readonly #channels = new Map<string, RequestChannel>();

  constructor(private readonly clientCapabilities: () => ClientCapabilities | undefined) {}

  /** Binds a call id to the request it runs in, while the call runs. */
  bind(callId: string, channel: RequestChannel): () => void {
    this.#channels.set(callId, channel);
    // A call that became a task is bound again (to its task): the request's unbinding leaves that.
    return () => {
      if (this.#channels.get(callId) === channel) this.#channels.delete(callId);
    };
  }

  async elicit(request: RelayedRequest, signal: AbortSignal): Promise<ElicitationOutcome> {
    if (!supportsFormElicitation(this.clientCapabilities()))
      return {
        action: 'refused',
        reason: 'the MCP client of this session does not support form elicitation',
        missingCapability: 'elicitation',
      };
    if (request.params.mode !== undefined && request.params.mode !== 'form')
      return {
        action: 'refused',
        reason: `Quiver relays form elicitation only, not "${String(request.params.mode)}"`,
      };
    const channel = this.#channel(request);
    if (channel === undefined) return this.#noRequest();
    // The one renderer of what a person is asked: the asker named, its text escaped, and a
    // question shaped like Quiver's own permission form refused.
    const question = renderRelayedQuestion(request);
    if (!question.ok) return { action: 'refused', reason: question.reason };
    // Only what Quiver rendered: any other parameter of the server's would reach the client raw.
    const form: ElicitRequestFormParams = {
      mode: 'form',
      message: question.message,
      requestedSchema: question.requestedSchema as ElicitRequestFormParams['requestedSchema'],
      _meta: { ...serversMeta(request.params._meta), ...relayedFrom(request) },
    };
    let result: ElicitResult;
    if (channel.round) {
      const answered = fromRound(channel.round, 'elicitation', request, form);
      if (!answered.ok) return answered.refusal;
      result = answered.answer as ElicitResult;
    } else result = await channel.elicitInput(form, personAnswerOptions(signal));
    // As the SDK checks a 2025-11-25 client's answer (a 2026-07-28 retry's and a task's
    // tasks/update answers it does not): content the form did not ask for never reaches the asker.
    const misfit = result.action === 'accept' ? fitsForm(form, result.content) : undefined;
    if (misfit) return { action: 'refused', reason: misfit };
    if (result.action === 'accept')
      return { action: 'accept', ...(result.content ? { content: result.content } : {}) };
    return { action: result.action };
  }

  async sample(request: RelayedRequest, signal: AbortSignal): Promise<SamplingOutcome> {
    if (this.clientCapabilities()?.sampling === undefined)
      return {
        action: 'refused',
        reason: 'the MCP client of this session does not support sampling',
        missingCapability: 'sampling',
      };
    const channel = this.#channel(request);
    if (channel === undefined) return this.#noRequest();
    const params = labelledSampling(request);
    if (channel.round) {
      const answered = fromRound(channel.round, 'sampling', request, params);
      if (!answered.ok) return answered.refusal;
      return { action: 'completed', result: answered.answer as Record<string, unknown> };
    }
    const result = await channel.requestSampling(params, personAnswerOptions(signal));
    return { action: 'completed', result: result as Record<string, unknown> };
  }

  async listRoots(request: RelayedRequest, signal: AbortSignal): Promise<RootsOutcome> {
    if (this.clientCapabilities()?.roots === undefined)
      return {
        action: 'refused',
        reason: 'the MCP client of this session does not support roots',
        missingCapability: 'roots',
      };
    const channel = this.#channel(request);
    if (channel === undefined) return this.#noRequest();
    if (channel.round) {
      const answered = fromRound(channel.round, 'roots', request, {});
      if (!answered.ok) return answered.refusal;
      return { action: 'listed', roots: (answered.answer as { roots: RootsList }).roots };
    }
    if (!channel.listRoots)
      return { action: 'refused', reason: 'this MCP connection cannot send roots/list to its client' };
    const result = await channel.listRoots(personAnswerOptions(signal));
    return { action: 'listed', roots: result.roots };
  }

  #channel(request: RelayedRequest): RequestChannel | undefined {
    return this.#channels.get(request.callId);
  }

  #noRequest(): RelayRefusal {
    return {
      action: 'refused',
      reason: 'no request of the MCP client is waiting for this call, so it cannot be asked',
    };
  }
}

/** A relayed request's own `_meta`, without keys in Quiver's namespace: those are Quiver's to set. */
export function serversMeta(meta: unknown): Record<string, unknown> {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return {};
  return Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith('quiver/')));
}

/** `_meta` naming the server (or tool) a relayed request comes from, for a client that shows it. */
export function relayedFrom(request: RelayedRequest): Record<string, unknown> {
  return {
    'quiver/relayedFrom': {
      ...(request.server === undefined ? {} : { mcpServer: request.server }),
      toolName: request.toolName,
    },
  };
}

/**
 * A sampling request as serve's client receives it: its system prompt labelled as the server's
 * and quoted (so "You are Quiver…" reads as what a server wrote) and the server's name in `_meta`. The
 * context a server may ask for was settled by the bridge (`mcpServers.<name>.samplingContext`); a
 * tool's own request gets none.
 */
export function labelledSampling(request: RelayedRequest): CreateMessageRequest['params'] {
  const params = request.params as CreateMessageRequest['params'];
  const asker = relayedAsker(request);
  const label = `This request comes from ${asker}, relayed by Quiver while it ran ${visibleText(request.toolName)}; it is not Quiver's or the user's.`;
  const systemPrompt =
    typeof params.systemPrompt === 'string' && params.systemPrompt !== ''
      ? // One JSON string, escaped: the server's text cannot end the quotation and go on as Quiver's.
        `${label} The system prompt ${asker} sent, as one JSON string: ${visibleText(JSON.stringify(params.systemPrompt))}`
      : label;
  // A tool's own request has no `mcpServers.<name>.samplingContext` to opt in with: it gets none
  // of the client's context, which would otherwise go back to it inside the completion.
  const ownContext =
    request.server === undefined && params.includeContext !== undefined
      ? { includeContext: 'none' as const }
      : {};
  return {
    ...params,
    ...ownContext,
    systemPrompt,
    _meta: { ...serversMeta(params._meta), ...relayedFrom(request) },
  };
}

type RootsList = Array<{ uri: string; name?: string }>;

let validator: AjvJsonSchemaValidator | undefined;

/** Why accepted content does not match the form's requestedSchema, or undefined when it does. */
function fitsForm(form: ElicitRequestFormParams, content: unknown): string | undefined {
  validator ??= new AjvJsonSchemaValidator();
  const checked = validator.getValidator(form.requestedSchema)(content ?? {});
  return checked.valid
    ? undefined
    : `the caller's answer does not match the question's schema (${checked.errorMessage ?? 'invalid'}): answer with the fields the question asked for`;
}

/** The answer a 2026-07-28 retry brought for exactly this question, or the question kept for the result. */
function fromRound(
  round: PermissionRound,
  kind: RelayedInputKind,
  request: RelayedRequest,
  params: Record<string, unknown>,
): { ok: true; answer: unknown } | { ok: false; refusal: RelayRefusal } {
  const asker = relayedAsker(request);
  const answered = round.relay(kind, asker, params, request.key);
  if (answered) return { ok: true, answer: answered.answer };
  return { ok: false, refusal: { action: 'refused', reason: INPUT_REQUIRED, inputRequired: true } };
}
