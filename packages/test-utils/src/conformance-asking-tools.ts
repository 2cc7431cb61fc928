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
  registerInputRequiredTools(asking);
}

type Asking = (
  name: string,
  description: string,
  ask: (args: Record<string, unknown>, relay: ClientRelayHandle, context: ToolContext) => Promise<ToolResult>,
) => void;

const nameQuestion = {
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

/**
 * The 2026-07-28 suite's tools that ask their caller (SEP-2322), written as any plugin tool asks:
 * through `client_relay`, with the input key the suite expects. A refusal that says the question
 * went back to the caller (`inputRequired`) ends the call; serve answers with the question and
 * runs the call again with the caller's answer.
 */
function registerInputRequiredTools(asking: Asking): void {
  const ask = (relay: ClientRelayHandle, context: ToolContext, toolName: string) => ({
    elicit: (key: string, params: Record<string, unknown>) =>
      relay.elicit({ callId: context.callId, toolName, key, params }, context.signal),
    sample: (key: string, text: string, maxTokens: number) =>
      relay.sample(
        {
          callId: context.callId,
          toolName,
          key,
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
        },
        context.signal,
      ),
    roots: (key: string) =>
      relay.listRoots
        ? relay.listRoots({ callId: context.callId, toolName, key, params: {} }, context.signal)
        : Promise.resolve({ action: 'refused' as const, reason: 'the caller cannot list roots' }),
  });
  const refusal = (outcome: { action: string; reason?: string }) =>
    fail('not_available', outcome.reason ?? `the caller answered ${outcome.action}`);
  const elicitOnce = (
    name: string,
    key: string,
    params: Record<string, unknown>,
    done: (content: string) => string,
  ) =>
    asking(
      name,
      `Asks its caller one question (${key}) and answers with what it was told`,
      async (_args, relay, context) => {
        const answer = await ask(relay, context, name).elicit(key, params);
        if (answer.action !== 'accept') return refusal(answer);
        return ok(done(JSON.stringify(answer.content ?? {})));
      },
    );
  // The stateless scenario checks that a call that asks answers with a result, never a request.
  elicitOnce('test_streaming_elicitation', 'user_name', nameQuestion, (content) => `Hello, ${content}!`);
  elicitOnce(
    'test_input_required_result_elicitation',
    'user_name',
    nameQuestion,
    (content) => `Hello, ${content}!`,
  );
  elicitOnce(
    'test_input_required_result_request_state',
    'confirm',
    {
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    },
    (content) => `Confirmed: ${content}`,
  );
  elicitOnce(
    'test_input_required_result_tampered_state',
    'confirm',
    {
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    },
    (content) => `Confirmed: ${content}`,
  );
  asking(
    'test_input_required_result_sampling',
    "Asks its caller's model one question",
    async (_args, relay, context) => {
      const answer = await ask(relay, context, 'test_input_required_result_sampling').sample(
        'capital_question',
        'What is the capital of France?',
        100,
      );
      if (answer.action !== 'completed') return refusal(answer);
      const content = answer.result.content as { text?: string } | undefined;
      return ok(`The model answered: ${content?.text ?? JSON.stringify(answer.result)}`);
    },
  );
  asking(
    'test_input_required_result_list_roots',
    "Lists its caller's roots",
    async (_args, relay, context) => {
      const answer = await ask(relay, context, 'test_input_required_result_list_roots').roots('client_roots');
      if (answer.action !== 'listed') return refusal(answer);
      return ok(`Roots: ${answer.roots.map((root) => root.uri).join(', ')}`);
    },
  );
  asking(
    'test_input_required_result_multiple_inputs',
    'Asks its caller a question, its model and its roots at once',
    async (_args, relay, context) => {
      const asks = ask(relay, context, 'test_input_required_result_multiple_inputs');
      const [name, greeting, roots] = await Promise.all([
        asks.elicit('user_name', nameQuestion),
        asks.sample('greeting', 'Generate a greeting', 50),
        asks.roots('client_roots'),
      ]);
      if (name.action !== 'accept') return refusal(name);
      if (greeting.action !== 'completed') return refusal(greeting);
      if (roots.action !== 'listed') return refusal(roots);
      const text = (greeting.result.content as { text?: string } | undefined)?.text ?? '';
      return ok(
        `${text} ${JSON.stringify(name.content ?? {})}; roots: ${roots.roots.map((r) => r.uri).join(', ')}`,
      );
    },
  );
  asking(
    'test_input_required_result_multi_round',
    'Asks its caller two questions, the second after the first is answered',
    async (_args, relay, context) => {
      const asks = ask(relay, context, 'test_input_required_result_multi_round');
      const name = await asks.elicit('step1', {
        message: 'Step 1: What is your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      if (name.action !== 'accept') return refusal(name);
      const color = await asks.elicit('step2', {
        message: 'Step 2: What is your favorite color?',
        requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      });
      if (color.action !== 'accept') return refusal(color);
      return ok(`${JSON.stringify(name.content)} likes ${JSON.stringify(color.content)}`);
    },
  );
  asking(
    'test_input_required_result_capabilities',
    'Asks its caller a question and its model, each only when the caller can answer it',
    async (_args, relay, context) => {
      const asks = ask(relay, context, 'test_input_required_result_capabilities');
      const [question, sampled] = await Promise.all([
        asks.elicit('user_name', nameQuestion),
        asks.sample('greeting', 'Generate a greeting', 50),
      ]);
      return ok(`elicitation: ${question.action}; sampling: ${sampled.action}`);
    },
  );
  asking(
    'test_missing_capability',
    "Needs its caller's model: fails with client_capability_missing when the caller has none",
    async (_args, relay, context) => {
      const answer = await ask(relay, context, 'test_missing_capability').sample(
        'completion',
        'Say hello',
        20,
      );
      if (answer.action === 'completed') return ok('The caller sampled.');
      if (answer.missingCapability)
        return fail('client_capability_missing', answer.reason, {
          requiredCapabilities: { [answer.missingCapability]: {} },
        });
      return refusal(answer);
    },
  );
}
