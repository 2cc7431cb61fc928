import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import type { PermissionPrompt } from '@quiver/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ElicitationPermissionResolver } from '../src/serve/permission-elicitation.js';

/** A serve-side SDK server and a client whose user answers only when `answer` is called. */
async function slowPerson(): Promise<{ server: Server; answer: () => void; close: () => Promise<void> }> {
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  const client = new Client({ name: 'slow-person', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => {
    await answered;
    return { action: 'accept', content: { decision: 'once' } };
  });
  const server = new Server({ name: 'serve', version: '1.0.0' }, { capabilities: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    server,
    answer: release,
    close: async () => Promise.all([client.close(), server.close()]).then(() => {}),
  };
}

const prompt = {
  callId: 'call-1',
  toolName: 'run_command',
  args: { command: 'make deploy' },
  decision: { behavior: 'ask', reason: 'no rule allows it' },
} as unknown as PermissionPrompt;

describe('a person asked through serve', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('may take longer than the SDK default of 60 s to answer a permission ask', async () => {
    const { server, answer, close } = await slowPerson();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const resolver = new ElicitationPermissionResolver();
    resolver.bind(prompt.callId, (params, options) => server.elicitInput(params, options));
    const decision = resolver.resolve(prompt, new AbortController().signal);
    let settled = false;
    void decision.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(settled).toBe(false);
    answer();
    await expect(decision).resolves.toEqual({ behavior: 'allow', scope: 'once' });
    await close();
  });

  it('stops waiting at once when the call is cancelled', async () => {
    const { server, close } = await slowPerson();
    const resolver = new ElicitationPermissionResolver();
    resolver.bind(prompt.callId, (params, options) => server.elicitInput(params, options));
    const cancel = new AbortController();
    const decision = resolver.resolve(prompt, cancel.signal);
    cancel.abort();
    await expect(decision).rejects.toThrow();
    await close();
  });
});
