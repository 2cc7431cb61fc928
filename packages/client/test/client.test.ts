import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type PermissionRequest, QuiverClient, type QuiverEvent, QuiverRpcError } from '../src/index.js';

/** The `quiver` binary of this repository, built. */
const QUIVER_BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@quiver/cli/package.json')),
  'dist/bin.js',
);

const cleanups: Array<() => void | Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace(personality: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quiver-client-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => rmSync(`${dir}-xdg`, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
  writeFileSync(path.join(dir, 'personalities/agent.yaml'), personality);
  writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
  return dir;
}

async function start(dir: string, options: Parameters<typeof QuiverClient.start>[0] = {}) {
  const client = await QuiverClient.start({
    command: process.execPath,
    args: [QUIVER_BIN, '--trust-project'],
    cwd: dir,
    // The data directory stays outside the workspace, as Quiver requires of trust and pins.
    env: { ...process.env, NO_COLOR: '1', XDG_DATA_HOME: `${dir}-xdg` },
    ...options,
  });
  cleanups.push(() => client.kill());
  return client;
}

const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('@quiver/client against a real quiver rpc', { timeout: 60_000 }, () => {
  it("runs a first-party tool and its own tools through Quiver's pipeline, with typed events, asks and progress", async () => {
    const dir = workspace(
      'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file]\n  ask: [snapshot]\n',
    );
    const asked: PermissionRequest[] = [];
    const client = await start(dir, {
      onPermission: (request) => {
        asked.push(request);
        return request.args && (request.args as { city?: string }).city === 'Oslo'
          ? { behavior: 'allow', scope: 'once' }
          : { behavior: 'deny', reason: 'not there' };
      },
    });
    expect(client.info.trust.state).toBe('trusted');
    const session = await client.createSession({
      sessionId: 'client-test',
      externalTools: [
        {
          name: 'snapshot',
          description: 'A picture of the sky over a city.',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          execute: (args, { progress }) => {
            progress({ progress: 1, total: 1, message: 'pointing the camera' });
            return {
              ok: true,
              value: `sky over ${(args as { city: string }).city}`,
              attachments: [{ type: 'image', mimeType: 'image/png', data: PIXEL }],
            };
          },
        },
      ],
    });
    const events: QuiverEvent[] = [];
    session.onEvent((event) => events.push(event));
    const progress: number[] = [];
    session.on('tool.execution_progress', (event) => progress.push(event.progress));
    const ready = await session.ready();
    expect(ready.tools).toEqual(expect.arrayContaining(['read_file', 'snapshot']));
    const rendered = await session.render('mcp');
    expect(rendered.tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(['read_file', 'snapshot']),
    );

    const results = await session.execute([
      { id: 'r1', name: 'read_file', args: { path: 'notes.txt' } },
      { id: 's1', name: 'snapshot', args: { city: 'Oslo' } },
      { id: 's2', name: 'snapshot', args: { city: 'Bergen' } },
    ]);
    expect(results[0]).toMatchObject({ ok: true, value: expect.stringContaining('remember the milk') });
    expect(results[1]).toMatchObject({ ok: true, attachments: [{ type: 'image', data: PIXEL }] });
    expect(results[2]).toMatchObject({
      ok: false,
      code: 'not_permitted',
      error: expect.stringContaining('not there'),
    });
    expect(asked.map((request) => request.question.headline.length > 0)).toEqual([true, true]);
    expect(progress).toEqual([1]);
    expect(events.filter((event) => event.type === 'tool.execution_complete')).toHaveLength(3);

    expect((await client.listSessions()).map((summary) => summary.id)).toContain('client-test');
    const log = await client.sessionLog('client-test');
    expect(log.calls.map((call) => call.callId)).toEqual(expect.arrayContaining(['r1', 's1', 's2']));
    await session.close();
    expect(await client.shutdown()).toBe(0);
  });

  it('aborts a running call with an AbortSignal and fails with the fix for an untrusted personality', async () => {
    const dir = workspace('id: agent\nplugins: [tools-code]\n');
    const client = await start(dir);
    const session = await client.createSession({
      externalTools: [
        {
          name: 'wait_forever',
          description: 'Never returns until aborted.',
          skipPermission: true,
          execute: (_args, { signal }) =>
            new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped'))),
        },
      ],
    });
    const controller = new AbortController();
    const running = session.execute([{ id: 'w', name: 'wait_forever', args: {} }], {
      signal: controller.signal,
    });
    await new Promise<void>((resolve) => {
      const stop = session.on('tool.execution_start', () => {
        stop();
        resolve();
      });
    });
    controller.abort();
    // Cancelling the request aborts the call in Quiver, which answers with the call's result.
    expect(await running).toEqual([expect.objectContaining({ ok: false, code: 'aborted' })]);

    await expect(client.resumeSession('never-was')).rejects.toMatchObject({ code: -32001 });
    await client.shutdown();

    const untrusted = await start(dir, { args: [QUIVER_BIN] });
    expect(untrusted.info.trust).toMatchObject({
      state: 'untrusted',
      fix: expect.stringContaining('quiver trust'),
    });
    const refused = await untrusted.createSession({ personality: 'agent' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QuiverRpcError);
    expect(refused).toMatchObject({
      quiverCode: 'personality_untrusted',
      fix: expect.stringContaining('--trust-project'),
    });
  });

  it("relays a bridged server's question and sampling request to its handlers, labelled with who asks", async () => {
    const relayServer = path.resolve(
      QUIVER_BIN,
      '../../../../extensions/mcp-bridge/test/fixtures/relay-server.mjs',
    );
    const dir = workspace(
      'id: agent\nplugins: [mcp-bridge]\nmcpServers: { relay: true }\npermissions:\n  allow: [mcp__relay__ask_name, mcp__relay__summarize]\n',
    );
    writeFileSync(
      path.join(dir, 'quiver.yaml'),
      `defaultPersonality: agent\nmcpServers:\n  relay:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(relayServer)}]\n    allow: [elicitation, sampling]\n`,
    );
    const questions: string[] = [];
    const prompts: string[] = [];
    const client = await start(dir, {
      onElicitation: (request) => {
        questions.push(`${request.mcpServer}: ${request.message}`);
        return { action: 'accept', content: { name: 'Ada' } };
      },
      onSampling: (request) => {
        prompts.push(String(request.params.systemPrompt));
        return { role: 'assistant', content: { type: 'text', text: 'short' }, model: 'scripted' };
      },
    });
    const session = await client.createSession();
    const relayed: string[] = [];
    session.onEvent((event) => {
      if (event.type === 'client_relay.completed') relayed.push(`${event.kind}:${event.outcome}`);
    });
    expect((await session.ready()).tools).toEqual(
      expect.arrayContaining(['mcp__relay__ask_name', 'mcp__relay__summarize']),
    );
    const [greeting, summary] = await session.execute([
      { name: 'mcp__relay__ask_name', args: {} },
      { name: 'mcp__relay__summarize', args: { text: 'a long story' } },
    ]);
    expect(greeting).toMatchObject({ ok: true, value: expect.stringContaining('hello Ada') });
    expect(summary).toMatchObject({ ok: true, value: expect.stringContaining('summary by scripted: short') });
    expect(questions).toEqual([expect.stringMatching(/^relay: .*relay.*asks: What is your name\?/)]);
    expect(prompts[0]).toContain("it is not Quiver's or the user's");
    // The bridge's record of each relayed request reaches the client as session events too.
    expect(relayed.sort()).toEqual(['elicitation:accept', 'sampling:completed']);
  });
});
