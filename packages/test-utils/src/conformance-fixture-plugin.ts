import { definePlugin, fail, ok, type ToolContext, type ToolResult } from '@quiver/types';

import { z } from 'zod';
import { registerAskingTools } from './conformance-asking-tools.js';
import { registerTaskTools } from './conformance-task-tools.js';

// The tools the official MCP conformance suite's server scenarios call, with the content its
// reference "everything" server returns, as a Quiver plugin that `quiver serve` offers.
// Resources and prompts have no place in the plugin contract (a bridged fixture server serves
// them); sampling and elicitation go to serve's client through the `client_relay` capability.

const TEST_IMAGE_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const TEST_AUDIO_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

const noArguments = z.object({});

export const conformanceFixturePlugin = definePlugin({
  id: 'conformance-fixture',
  apiVersion: 1,
  version: '0.0.0',
  description: "The tools the MCP conformance suite's server scenarios call.",
  register(ctx) {
    const tool = (
      name: string,
      description: string,
      execute: (args: Record<string, unknown>, context: ToolContext) => ToolResult | Promise<ToolResult>,
      input: z.ZodObject = noArguments,
    ) =>
      ctx.registerTool({
        name,
        description,
        input,
        capabilities: {},
        annotations: { readOnly: true, idempotent: true, openWorld: false },
        execute: execute as never,
      });

    tool('test_simple_text', 'Tests simple text content response', () =>
      ok('This is a simple text response for testing.'),
    );
    tool('test_image_content', 'Tests image content response', () =>
      ok('', { attachments: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }] }),
    );
    tool('test_audio_content', 'Tests audio content response', () =>
      ok('', { attachments: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }] }),
    );
    tool('test_embedded_resource', 'Tests embedded resource content response', () =>
      ok('', {
        attachments: [
          {
            type: 'resource',
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        ],
      }),
    );
    tool(
      'test_multiple_content_types',
      'Tests response with multiple content types (text, image, resource)',
      () =>
        ok('Multiple content types test:', {
          attachments: [
            { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
            {
              type: 'resource',
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: JSON.stringify({ test: 'data', value: 123 }),
            },
          ],
        }),
    );
    tool(
      'test_tool_with_logging',
      'Tests tool that emits log messages during execution',
      async (_args, context) => {
        for (const line of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
          context.emit({ type: 'log', level: 'info', message: line });
          await pause(50, context.signal);
        }
        return ok('Tool with logging executed successfully');
      },
    );
    // Revision 2026-07-28's name for it: a stateless request gets its log messages only when its
    // `_meta` names a log level.
    tool(
      'test_logging_tool',
      'Tests tool that emits log messages during execution',
      async (_args, context) => {
        for (const line of ['Logging tool started', 'Logging tool working', 'Logging tool finished']) {
          context.emit({ type: 'log', level: 'info', message: line });
          await pause(20, context.signal);
        }
        return ok('Logging tool executed successfully');
      },
    );
    // Each call adds test_added_tool, or removes it when it is there: the tool list really changes,
    // so serve announces it (notifications/tools/list_changed, on subscriptions/listen streams).
    let removeAdded: (() => void) | undefined;
    tool('test_trigger_tool_change', 'Adds test_added_tool, or removes it when present', () => {
      if (removeAdded) {
        removeAdded();
        removeAdded = undefined;
      } else {
        removeAdded = tool('test_added_tool', 'A tool test_trigger_tool_change added', () => ok('added'));
      }
      return ok(removeAdded ? 'test_added_tool added' : 'test_added_tool removed');
    });
    tool(
      'test_tool_with_progress',
      'Tests tool that reports progress notifications',
      async (_args, context) => {
        for (const progress of [0, 50, 100]) {
          context.emit({
            type: 'progress',
            progress,
            total: 100,
            message: `Completed step ${progress} of 100`,
          });
          await pause(50, context.signal);
        }
        return ok('progress reported');
      },
    );
    tool('test_error_handling', 'Tests error response handling', () =>
      fail('execution_failed', 'This tool intentionally returns an error for testing'),
    );
    registerAskingTools(ctx);
    registerTaskTools(ctx);
    // The schema as the suite writes it: a plugin may publish its own JSON Schema beside the zod one.
    ctx.registerTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      input: z
        .object({
          name: z.string().optional(),
          address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional(),
        })
        .strict(),
      parametersJsonSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
      capabilities: {},
      execute: (args) => ok(`Received: ${JSON.stringify(args)}`),
    });
  },
});

export default conformanceFixturePlugin;
