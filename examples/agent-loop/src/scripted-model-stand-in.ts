import type { Message, Model, ModelRequest, ModelResponse, ToolResultBlock } from './messages.js';

/** What a scripted turn sees: the tool results of the previous turn and the tools on offer. */
export interface ScriptedTurnInput {
  results: readonly ToolResultBlock[];
  toolNames: ReadonlySet<string>;
}

/** One canned model turn. Returning undefined ends the conversation early. */
export type ScriptedTurn = (input: ScriptedTurnInput) => ModelResponse | undefined;

function lastToolResults(messages: readonly Message[]): ToolResultBlock[] {
  const last = messages.at(-1);
  if (last?.role !== 'user' || typeof last.content === 'string') return [];
  return last.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
}

function finish(text: string): ModelResponse {
  return { content: [{ type: 'text', text }], stop_reason: 'end_turn' };
}

function callTool(id: string, text: string, name: string, input: unknown): ModelResponse {
  return {
    content: [
      { type: 'text', text },
      { type: 'tool_use', id, name, input },
    ],
    stop_reason: 'tool_use',
  };
}

/**
 * NOT A MODEL. A list of canned turns standing in for an LLM so the example runs offline. Each
 * turn reads the tool results it was given (a file name from the listing, a line from the file),
 * as a model would; swap it for a provider SDK client to run a real agent.
 */
export class ScriptedModelStandIn implements Model {
  readonly #turns: readonly ScriptedTurn[];
  #next = 0;

  constructor(turns: readonly ScriptedTurn[] = DEMO_TURNS) {
    this.#turns = turns;
  }

  async respond(request: ModelRequest): Promise<ModelResponse> {
    const turn = this.#turns[this.#next];
    this.#next += 1;
    if (turn === undefined) return finish('I have nothing left to do.');
    const input = {
      results: lastToolResults(request.messages),
      toolNames: new Set(request.tools.map((tool) => tool.name)),
    };
    return turn(input) ?? finish('I stopped: the previous result did not give me what I needed.');
  }
}

const needs = (input: ScriptedTurnInput, name: string) => input.toolNames.has(name);

/**
 * The demo: look around, read the notes, tick off a TODO, try to delete the build output (the
 * user is asked and says no), and file a ticket about it instead.
 */
export const DEMO_TURNS: readonly ScriptedTurn[] = [
  (input) =>
    needs(input, 'list_dir')
      ? callTool('call_1', 'Let me see what is in the workspace.', 'list_dir', { path: '.' })
      : undefined,
  ({ results, toolNames }) => {
    const notes = results[0]?.content.match(/[\w.-]+\.md\b/)?.[0];
    if (notes === undefined || !toolNames.has('read_file')) return undefined;
    return callTool('call_2', `There is ${notes}; I will read it.`, 'read_file', { path: notes });
  },
  ({ results, toolNames }) => {
    const todo = results[0]?.content.match(/TODO:[^\n]*/)?.[0];
    const path = results[0]?.content.match(/[\w.-]+\.md\b/)?.[0] ?? 'NOTES.md';
    if (todo === undefined || !toolNames.has('edit_file')) return undefined;
    return callTool('call_3', 'One item is done; I will tick it off.', 'edit_file', {
      path,
      old_string: todo,
      new_string: todo.replace('TODO:', 'DONE:'),
    });
  },
  (input) =>
    needs(input, 'terminal')
      ? callTool('call_4', 'The build directory is stale; I will delete it.', 'terminal', {
          command: 'rm -rf build',
        })
      : undefined,
  ({ results, toolNames }) => {
    const refused = results[0]?.is_error === true;
    if (!toolNames.has('kanban_create')) return undefined;
    return callTool(
      'call_5',
      refused
        ? 'I was not allowed to delete it; I will file a ticket instead.'
        : 'Deleted; I will record it.',
      'kanban_create',
      {
        title: 'Clean the stale build directory',
        description: refused
          ? `\`rm -rf build\` was refused: ${results[0]?.content}`
          : 'Deleted build/ with rm -rf build.',
      },
    );
  },
  ({ results }) =>
    finish(
      `Done. I ticked off a TODO in the notes and filed a ticket. Last result: ${results[0]?.content.split('\n')[0] ?? 'none'}`,
    ),
];
