import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { QuiverEvent, RelayedRequest } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const relayServer = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../extensions/mcp-bridge/test/fixtures/relay-server.mjs',
);

describe("a bridged server's questions under createQuiver", () => {
  let workspace: string;
  let quiver: Quiver;
  const events: QuiverEvent[] = [];

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-relay-')));
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  relay:\n    command: ${process.execPath}\n    args: [${JSON.stringify(relayServer)}]\n    allow: [elicitation]\ndefaultPersonality: asks\n`,
    );
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/asks.yaml'),
      'id: asks\nplugins: [mcp-bridge]\nmcpServers:\n  relay: {}\npermissions:\n  allow: [mcp__relay]\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
    quiver.host.events.subscribe((event) => {
      if (event.type.startsWith('client_relay.')) events.push(event);
    });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('go to the client the session was created with', async () => {
    const asked: RelayedRequest[] = [];
    const session = quiver.createSession({
      clientRelay: {
        elicit: async (request) => {
          asked.push(request);
          return { action: 'accept', content: { name: 'Grace' } };
        },
        sample: async () => ({ action: 'refused', reason: 'no model here' }),
      },
    });
    await session.ready();
    const [result] = await session.execute([{ id: 'ask-1', name: 'mcp__relay__ask_name', args: {} }]);
    expect(result).toMatchObject({ ok: true, value: 'hello Grace' });
    expect(asked).toEqual([expect.objectContaining({ server: 'relay', callId: 'ask-1' })]);
    expect(events.filter((event) => event.sessionId === session.id).map((event) => event.type)).toEqual([
      'client_relay.requested',
      'client_relay.completed',
    ]);
    await session.close();
  });

  it('are refused, saying why, in a session created without a client', async () => {
    const session = quiver.createSession();
    await session.ready();
    const [result] = await session.execute([{ name: 'mcp__relay__ask_name', args: {} }]);
    expect(result?.ok).toBe(false);
    expect(result?.ok === false && result.error).toContain('this session has no client that can be asked');
    await session.close();
  });
});
