import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { QuiverClient } from '@quiver/client';
import { afterEach, describe, expect, it } from 'vitest';
import { quiverTools } from '../src/index.js';

const QUIVER_BIN = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@quiver/cli/package.json')),
  'dist/bin.js',
);
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workspace(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'quiver-langchain-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
  writeFileSync(
    path.join(dir, 'personalities/agent.yaml'),
    'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file, list_dir]\n  ask: [write_file]\n',
  );
  writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
  return dir;
}

/** A scripted chat model on LangChain's BaseChatModel: one AIMessage per call, what it saw kept. */
class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];
  bound: StructuredToolInterface[] = [];
  readonly #turns: AIMessage[];
  constructor(turns: AIMessage[]) {
    super({});
    this.#turns = turns;
  }
  _llmType() {
    return 'scripted';
  }
  override bindTools(tools: StructuredToolInterface[]) {
    this.bound = tools;
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push([...messages]);
    const message = this.#turns[this.seen.length - 1];
    if (!message) throw new Error('the script has no more turns');
    return { generations: [{ text: String(message.content), message }] };
  }
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  id,
  name,
  args,
  type: 'tool_call' as const,
});

describe('@quiver/langchain with @langchain/core and a scripted chat model', { timeout: 60_000 }, () => {
  it('runs a multi-step tool loop through a quiver rpc session: results, denials and the log', async () => {
    const dir = workspace();
    const client = await QuiverClient.start({
      command: process.execPath,
      args: [QUIVER_BIN, '--trust-project'],
      cwd: dir,
      env: { ...process.env, XDG_DATA_HOME: path.join(dir, '.xdg') },
    });
    cleanups.push(() => client.kill());
    const session = await client.createSession({ sessionId: 'langchain' });
    await session.ready();
    const tools = await quiverTools(session);
    const byName = new Map(tools.map((entry) => [entry.name, entry]));
    const model = new ScriptedChatModel([
      new AIMessage({
        content: '',
        tool_calls: [
          call('lc-1', 'read_file', { path: 'notes.txt' }),
          call('lc-2', 'write_file', { path: 'x.txt', content: 'x' }),
        ],
      }),
      new AIMessage({ content: '', tool_calls: [call('lc-3', 'list_dir', { path: '.' })] }),
      new AIMessage({ content: 'Buy milk.' }),
    ]);
    const bound = model.bindTools(tools);
    // The tool loop of LangChain's tool-calling guide: invoke, run each call, feed back the ToolMessages.
    const messages: BaseMessage[] = [new HumanMessage('What should I remember?')];
    for (let step = 0; step < 5; step++) {
      const reply = (await bound.invoke(messages)) as AIMessage;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const toolCall of reply.tool_calls) {
        const quiverTool = byName.get(toolCall.name);
        if (!quiverTool) throw new Error(`no tool ${toolCall.name}`);
        messages.push((await quiverTool.invoke(toolCall)) as ToolMessage);
      }
    }
    expect(model.bound.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'list_dir']),
    );
    expect(messages.at(-1)?.content).toBe('Buy milk.');
    expect(model.seen).toHaveLength(3);
    const toolMessages = model.seen[1]?.filter((message) => message.getType() === 'tool') as ToolMessage[];
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(['lc-1', 'lc-2']);
    expect(toolMessages[0]?.content).toContain('remember the milk');
    expect(toolMessages[1]?.content).toMatch(/Error \(not_permitted\)/);
    expect(toolMessages[1]?.artifact).toMatchObject({ ok: false, code: 'not_permitted' });
    const log = await client.sessionLog('langchain');
    expect(log.calls.map((entry) => [entry.callId, entry.status])).toEqual(
      expect.arrayContaining([
        ['lc-1', 'ok'],
        ['lc-2', 'error'],
        ['lc-3', 'ok'],
      ]),
    );
    await client.shutdown();
  });
});
