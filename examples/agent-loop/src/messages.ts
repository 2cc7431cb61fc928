import type { AnthropicToolDefinition } from '@quiver/runtime';

/**
 * The conversation in Anthropic Messages API shapes, so that a real client is a drop-in for the
 * stand-in: `client.messages.create({ model, max_tokens, tools, messages })` takes and returns these.
 */
export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

export type AssistantBlock = TextBlock | ToolUseBlock;

export type Message =
  | { role: 'user'; content: string | (TextBlock | ToolResultBlock)[] }
  | { role: 'assistant'; content: AssistantBlock[] };

export interface ModelRequest {
  tools: AnthropicToolDefinition[];
  messages: readonly Message[];
}

export interface ModelResponse {
  content: AssistantBlock[];
  stop_reason: 'tool_use' | 'end_turn';
}

/** The one port of the loop: anything that answers a request with text and tool calls. */
export interface Model {
  respond(request: ModelRequest): Promise<ModelResponse>;
}
