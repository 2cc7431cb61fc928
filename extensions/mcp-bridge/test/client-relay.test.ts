import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  CapabilityBackendRegistry,
  ClientRelayHandle,
  ElicitationOutcome,
  RelayedRequest,
  SamplingOutcome,
} from '@quiver/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientRelayEvent, McpServerConfigInput } from '../src/index.js';
import { createHarness, type Harness, makeTempDir } from './helpers.js';

const relayServer = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'relay-server.mjs');

/** The person (or MCP client) at the other end of the session: a true port, scripted here. */
function scriptedClient(answers: {
  elicit?: (request: RelayedRequest) => ElicitationOutcome;
  sample?: (request: RelayedRequest) => SamplingOutcome;
}) {
  const asked: RelayedRequest[] = [];
  const handle: ClientRelayHandle = {
    async elicit(request) {
      asked.push(request);
      return answers.elicit?.(request) ?? { action: 'refused', reason: 'no answer scripted' };
    },
    async sample(request) {
      asked.push(request);
      return answers.sample?.(request) ?? { action: 'refused', reason: 'no answer scripted' };
    },
  };
  const backends: CapabilityBackendRegistry = {
    has: (capability) => capability === 'client_relay',
    resolve: async () => handle as never,
  };
  return { asked, backends };
}

describe('requests of a bridged server to the session client', () => {
  let harness: Harness | undefined;
  const events: ClientRelayEvent[] = [];
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    events.length = 0;
  });

  async function start(config: Partial<McpServerConfigInput>, roots: string[] = []) {
    harness = createHarness(
      { relay: { command: process.execPath, args: [relayServer], ...config } },
      { onRelayEvent: (event) => events.push(event), roots },
    );
    await harness.bridge.start();
    return harness;
  }

  async function call(
    name: string,
    args: unknown,
    backends?: CapabilityBackendRegistry,
    ids = { call: 'call-1', session: 'session-1' },
  ) {
    const [result] = await (harness as Harness).registry.executeParallel([{ id: ids.call, name, args }], {
      sessionId: ids.session,
      personalityId: 'test',
      agent: { kind: 'main', id: 'main' },
      turn: 1,
      ...(backends ? { backends } : {}),
    });
    if (result === undefined) throw new Error('no result');
    return result;
  }

  it("asks the session's client a server's question and hands the answer back to the server", async () => {
    await start({ allow: ['elicitation'] });
    const client = scriptedClient({ elicit: () => ({ action: 'accept', content: { name: 'Ada' } }) });
    const result = await call('mcp__relay__ask_name', {}, client.backends);
    expect(result).toMatchObject({ ok: true, value: 'hello Ada' });
    expect(client.asked).toEqual([
      expect.objectContaining({
        server: 'relay',
        callId: 'call-1',
        toolName: 'mcp__relay__ask_name',
        params: expect.objectContaining({ message: 'What is your name?' }),
      }),
    ]);
    expect(events.map((event) => [event.type, event.kind, event.sessionId, event.callId])).toEqual([
      ['client_relay.requested', 'elicitation', 'session-1', 'call-1'],
      ['client_relay.completed', 'elicitation', 'session-1', 'call-1'],
    ]);
    expect(events[0]).toMatchObject({ mcpServer: 'relay', message: 'What is your name?' });
    expect(events[1]).toMatchObject({ outcome: 'accept' });
  });

  it('tells the server why its question was refused when nobody can answer it', async () => {
    await start({ allow: ['elicitation'] });
    const client = scriptedClient({
      elicit: () => ({ action: 'refused', reason: 'the MCP client of this session cannot show forms' }),
    });
    const result = await call('mcp__relay__ask_name', {}, client.backends);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain(
      'Quiver refused the elicitation request of MCP server "relay": the MCP client of this session cannot show forms',
    );
    expect(events.at(-1)).toMatchObject({ type: 'client_relay.completed', outcome: 'refused' });
  });

  it('offers no elicitation to a server whose configuration does not allow it', async () => {
    await start({});
    const client = scriptedClient({ elicit: () => ({ action: 'accept', content: { name: 'Ada' } }) });
    const tool = harness?.registry.get('mcp__relay__ask_name')?.tool;
    expect(tool?.capabilities).toEqual({});
    const result = await call('mcp__relay__ask_name', {}, client.backends);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(/the client refused: .*elicitation/i);
    expect(client.asked).toEqual([]);
  });

  it("says which capability is missing when the host gives an allowed server's tools no relay", async () => {
    await start({ allow: ['elicitation'] });
    const result = await call('mcp__relay__ask_name', {});
    expect(result).toMatchObject({ ok: false, code: 'not_available' });
    expect(result.ok ? '' : result.error).toContain('"client_relay" capability');
  });

  it("relays a sampling request to the session's client and returns its completion", async () => {
    await start({ allow: ['sampling'] });
    const client = scriptedClient({
      sample: () => ({
        action: 'completed',
        result: { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'client-model' },
      }),
    });
    const result = await call('mcp__relay__summarize', { text: 'a long story' }, client.backends);
    expect(result).toMatchObject({ ok: true, value: 'summary by client-model: short' });
    expect(client.asked[0]?.params).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: a long story' } }],
    });
    expect(events.at(-1)).toMatchObject({ kind: 'sampling', outcome: 'completed' });
  });

  it('answers roots with the workspace roots only when the configuration allows roots', async () => {
    const workspace = await makeTempDir('roots');
    try {
      await start({ allow: ['roots'] }, [workspace.path]);
      const allowed = await call('mcp__relay__list_roots', {});
      expect(allowed).toMatchObject({ ok: true, value: pathToFileURL(workspace.path).href });
      expect(events).toEqual([expect.objectContaining({ type: 'client_relay.completed', kind: 'roots' })]);
      await harness?.stop();
      await start({}, [workspace.path]);
      const refused = await call('mcp__relay__list_roots', {});
      expect(refused.ok).toBe(false);
    } finally {
      await workspace.remove();
    }
  });

  it('refuses a question while calls of two sessions run on the server, since it cannot tell whose it is', async () => {
    await start({ allow: ['elicitation'] });
    let release: () => void = () => {};
    const first = scriptedClient({});
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    first.backends.resolve = async () =>
      ({
        elicit: async () => {
          await answered;
          return { action: 'accept', content: { name: 'Ada' } };
        },
        sample: async () => ({ action: 'refused', reason: 'unused' }),
      }) as never;
    const firstCall = call('mcp__relay__ask_name', {}, first.backends, {
      call: 'call-a',
      session: 'session-a',
    });
    await vi.waitFor(() => expect(events.some((event) => event.callId === 'call-a')).toBe(true));
    const second = scriptedClient({ elicit: () => ({ action: 'accept', content: { name: 'Eve' } }) });
    const secondResult = await call('mcp__relay__ask_name', {}, second.backends, {
      call: 'call-b',
      session: 'session-b',
    });
    release();
    expect(await firstCall).toMatchObject({ ok: true, value: 'hello Ada' });
    expect(secondResult.ok ? '' : secondResult.error).toContain(
      'were running for several sessions at once, so Quiver could not tell whom to ask',
    );
    expect(second.asked).toEqual([]);
  });
});
