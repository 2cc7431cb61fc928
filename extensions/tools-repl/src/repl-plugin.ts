import { definePlugin } from '@quiver/types';
import { z } from 'zod';
import { createReplTool, DEFAULT_REPL_LIMITS } from './repl-tool.js';

export const REPL_PLUGIN_VERSION = '0.1.0';

const limits = z
  .object({
    timeSeconds: z
      .number()
      .positive()
      .max(3_600)
      .default(DEFAULT_REPL_LIMITS.timeSeconds)
      .describe('Seconds a script may run, waiting on tools included (default 60).'),
    memoryMb: z
      .number()
      .int()
      .min(8)
      .max(1_024)
      .default(DEFAULT_REPL_LIMITS.memoryMb)
      .describe('Megabytes of heap a script may use (default 64).'),
  })
  .default(DEFAULT_REPL_LIMITS);

/** Registers the repl tool: scripts that call the session's other tools from a QuickJS sandbox. */
export const replPlugin = definePlugin({
  id: 'tools-repl',
  apiVersion: 1,
  version: REPL_PLUGIN_VERSION,
  description: 'A repl tool: the model scripts its tool calls in a WebAssembly sandbox.',
  requires: ['config'],
  config: z.object({
    limits: limits.describe('Time and memory limits of a script.'),
  }),
  register(ctx) {
    ctx.registerTool(createReplTool(ctx.services.config.limits));
  },
});
