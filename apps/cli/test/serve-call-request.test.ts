import { Server, type ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { PlainCallRequest, withRound } from '../src/serve/call-request.js';
import { servePermissionRounds } from '../src/serve/permission-rounds.js';
import { LeanCancel } from '../src/serve/task-calls.js';

// A plain call's request is its own channel, its methods on its class: a 2026-07-28 round laid
// over it must still reach them (a spread copy would keep none and fail with a TypeError).
describe("a plain call's channel with a round", () => {
  const server = new Server({ name: 'quiver-test', version: '0.0.0' }, { capabilities: {} });
  const request = new PlainCallRequest(server, 7, new LeanCancel());
  // A first round: its request carries no state from an earlier one.
  const first = { mcpReq: { requestState: () => undefined } } as unknown as ServerContext;
  const round = servePermissionRounds().begin('read_file', {}, first);

  it('keeps the round and sends roots/list, sampling and questions through the request', async () => {
    const channel = withRound(request.channel, round);
    expect(channel.round).toBe(round);
    // Not connected: the server itself refuses, so each call reached it.
    await expect(channel.listRoots?.()).rejects.toThrow(/not connected/i);
    await expect(channel.requestSampling({ messages: [], maxTokens: 1 })).rejects.toThrow(
      /not connected|does not support/i,
    );
    await expect(
      channel.elicitInput({
        mode: 'form',
        message: 'x',
        requestedSchema: { type: 'object', properties: {} },
      }),
    ).rejects.toThrow(/not connected|does not support/i);
  });
});
