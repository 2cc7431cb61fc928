import { renderDefinitions, type Session } from '@quiver/runtime';
import { resultText } from '@quiver/types';
import type { Message, Model, ToolResultBlock, ToolUseBlock } from './messages.js';
import { formatEvent } from './print-events.js';

export interface AgentLoopOptions {
  session: Session;
  model: Model;
  /** The user's request, the first message of the conversation. */
  task: string;
  print: (line: string) => void;
  /** Model calls at most; default 20. */
  maxTurns?: number;
  signal?: AbortSignal;
}

export interface AgentLoopOutcome {
  messages: Message[];
  /** Model calls made. */
  turns: number;
  /** The model's last text. */
  finalText: string;
}

/** Subscribers run on microtasks; yielding once lets the events of a batch print before its results. */
const eventsDelivered = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The loop every agent has: send the tools and the conversation, run the tool calls the model
 * asks for through the session (permissions, hooks, reducers, events), send the results back,
 * until the model answers without tool calls.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopOutcome> {
  const { session, model, print } = options;
  const maxTurns = options.maxTurns ?? 20;
  const messages: Message[] = [{ role: 'user', content: options.task }];
  const unsubscribe = session.events.subscribe((event) => {
    const line = formatEvent(event);
    if (line !== undefined) print(line);
  });
  let finalText = '';
  try {
    for (let turn = 1; turn <= maxTurns; turn++) {
      // Rendered each turn: the pool can change (tool_search expansions, MCP servers, plugins).
      const pool = session.pool();
      const { tools, nameMap } = renderDefinitions(pool.definitions, 'anthropic', {
        stablePrefixLength: pool.stablePrefixLength,
      });
      const response = await model.respond({ tools, messages });
      messages.push({ role: 'assistant', content: response.content });
      for (const block of response.content) if (block.type === 'text') print(`model: ${block.text}`);
      finalText = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
      const uses = response.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
      if (uses.length === 0) return { messages, turns: turn, finalText };

      const results = await session.execute(
        uses.map((use) => ({ id: use.id, name: nameMap[use.name] ?? use.name, args: use.input })),
        { turn, ...(options.signal ? { signal: options.signal } : {}) },
      );
      await eventsDelivered();
      const blocks = results.map((result, index): ToolResultBlock => {
        const block: ToolResultBlock = {
          type: 'tool_result',
          tool_use_id: uses[index]?.id ?? '',
          content: resultText(result),
        };
        if (!result.ok) block.is_error = true;
        return block;
      });
      messages.push({ role: 'user', content: blocks });
    }
    print(`stopped after ${maxTurns} model calls`);
    return { messages, turns: maxTurns, finalText };
  } finally {
    unsubscribe();
  }
}
