import {
  type ClientRelayHandle,
  type ElicitationOutcome,
  errorMessage,
  type RelayedRequest,
  renderRelayedQuestion,
  type SamplingOutcome,
} from '@quiver/types';
import { CancellationTokenSource, type MessageConnection } from 'vscode-jsonrpc/node';
import { labelledSampling } from '../serve/client-relay.js';
import { elicitationReply } from './protocol.js';

/**
 * A bridged server's questions and sampling requests, sent to the rpc client as
 * `elicitation.requested` / `sampling.requested` when it declared it can answer them. What the
 * client shows is rendered here, by the same renderer as serve's: the asker named, its text
 * escaped, a form imitating Quiver's permission question refused. Never answers for the client.
 */
export function rpcClientRelay(
  connection: MessageConnection,
  sessionId: string,
  can: { elicitation: boolean; sampling: boolean },
): ClientRelayHandle {
  const origin = (request: RelayedRequest) => ({
    sessionId,
    callId: request.callId,
    toolName: request.toolName,
    ...(request.server === undefined ? {} : { mcpServer: request.server }),
  });
  return {
    async elicit(request, signal): Promise<ElicitationOutcome> {
      if (!can.elicitation)
        return {
          action: 'refused',
          reason: 'the rpc client of this session did not declare capabilities.elicitation',
        };
      if (request.params.mode !== undefined && request.params.mode !== 'form')
        return {
          action: 'refused',
          reason: `Quiver relays form elicitation only, not "${String(request.params.mode)}"`,
        };
      const question = renderRelayedQuestion(request);
      if (!question.ok) return { action: 'refused', reason: question.reason };
      const reply = await ask(connection, signal, 'elicitation.requested', {
        ...origin(request),
        message: question.message,
        requestedSchema: question.requestedSchema,
      });
      if (!reply.ok) return { action: 'refused', reason: reply.reason };
      const parsed = elicitationReply.safeParse(reply.value);
      if (!parsed.success)
        return { action: 'refused', reason: 'the rpc client answered with something that is not an answer' };
      return parsed.data;
    },
    async sample(request, signal): Promise<SamplingOutcome> {
      if (!can.sampling)
        return {
          action: 'refused',
          reason: 'the rpc client of this session did not declare capabilities.sampling',
        };
      const reply = await ask(connection, signal, 'sampling.requested', {
        ...origin(request),
        params: labelledSampling(request),
      });
      if (!reply.ok) return { action: 'refused', reason: reply.reason };
      if (typeof reply.value !== 'object' || reply.value === null || Array.isArray(reply.value))
        return {
          action: 'refused',
          reason: 'the rpc client answered sampling with something that is not a message',
        };
      return { action: 'completed', result: reply.value as Record<string, unknown> };
    },
  };
}

async function ask(
  connection: MessageConnection,
  signal: AbortSignal,
  method: string,
  params: object,
): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  const cancellation = new CancellationTokenSource();
  const onAbort = () => cancellation.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return { ok: true, value: await connection.sendRequest(method, params, cancellation.token) };
  } catch (error) {
    return {
      ok: false,
      reason: `the rpc client could not answer: ${errorMessage(error)}`,
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancellation.dispose();
  }
}
