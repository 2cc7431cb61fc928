import {
  type ClientRelayHandle,
  fail,
  ok,
  type PluginContext,
  type ToolContext,
  type ToolResult,
} from '@quiver/types';
import { z } from 'zod';

const noArguments = z.object({});

/**
 * The conformance suite's tools that ask serve's client something (sampling, elicitation),
 * through the `client_relay` capability a plugin tool declares.
 */
export function registerAskingTools(ctx: PluginContext): void {
  const asking = (
    name: string,
    description: string,
    ask: (
      args: Record<string, unknown>,
      relay: ClientRelayHandle,
      context: ToolContext,
    ) => Promise<ToolResult>,
    input: z.ZodObject = noArguments,
  ) =>
    ctx.registerTool({
      name,
      description,
      input,
      capabilities: { client_relay: true },
      execute: ((args: Record<string, unknown>, context: ToolContext) => {
        const relay = context.capabilities.client_relay;
        if (!relay) return fail('not_available', 'this session has no client to ask');
        return ask(args, relay, context);
      }) as never,
    });
  const elicited = async (
    relay: ClientRelayHandle,
    context: ToolContext,
    toolName: string,
    params: Record<string, unknown>,
  ): Promise<ToolResult> => {
    const answer = await relay.elicit({ callId: context.callId, toolName, params }, context.signal);
    if (answer.action === 'refused') return fail('not_available', answer.reason);
    return ok(
      `Elicitation result: action=${answer.action}, content=${JSON.stringify('content' in answer ? answer.content : {})}`,
    );
  };
  asking(
    'test_sampling',
    'Tests server-initiated sampling (LLM completion request)',
    async (args, relay, context) => {
      const answer = await relay.sample(
        {
          callId: context.callId,
          toolName: 'test_sampling',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
            maxTokens: 100,
          },
        },
        context.signal,
      );
      if (answer.action === 'refused') return fail('not_available', answer.reason);
      const content = answer.result.content as { text?: string } | undefined;
      return ok(`LLM response: ${content?.text ?? JSON.stringify(answer.result)}`);
    },
    z.object({ prompt: z.string() }),
  );
  asking(
    'test_elicitation',
    'Tests server-initiated elicitation (user input request)',
    (args, relay, context) =>
      elicited(relay, context, 'test_elicitation', {
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      }),
    z.object({ message: z.string() }),
  );
  asking(
    'test_elicitation_sep1034_defaults',
    'Tests elicitation with default values (SEP-1034)',
    (_args, relay, context) =>
      elicited(relay, context, 'test_elicitation_sep1034_defaults', {
        message: 'Please review and update the form fields with defaults',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
      }),
  );
  asking(
    'test_elicitation_sep1330_enums',
    'Tests elicitation with enum schema variants (SEP-1330)',
    (_args, relay, context) =>
      elicited(relay, context, 'test_elicitation_sep1330_enums', {
        message: 'Please select options from the enum fields',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: {
              type: 'string',
              description: 'Select one option',
              enum: ['option1', 'option2', 'option3'],
            },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
          required: [],
        },
      }),
  );
}
