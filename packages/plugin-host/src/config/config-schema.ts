import { z } from 'zod';
import { storageConfigSchema } from '../storage/storage-config.js';
import { serveConfigSchema } from './serve-config.js';

/** `quiver.yaml`: what the host loads. Personalities decide what each session may use. */
export const quiverConfigSchema = z
  .object({
    workspace: z
      .string()
      .default('.')
      .describe('Workspace root, relative to this file. Tools stay inside it.'),
    dataDir: z
      .string()
      .default('.quiver')
      .describe(
        'Where Quiver keeps its data (SQLite databases, spill files, grants), relative to the workspace.',
      ),
    plugins: z
      .array(z.string())
      .default([])
      .describe(
        'Third-party plugins to load, by package name (resolved from this directory or the workspace) or by path. First-party plugins are always available. Personalities enable plugins by id.',
      ),
    pluginConfig: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .default({})
      .describe(
        'Per-plugin settings by plugin id; a plugin receives its own section when it requires `config`.',
      ),
    mcpServers: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .default({})
      .describe(
        "MCP servers by name: `{ command, args, env, cwd }` for stdio or `{ url, headers }` for HTTP. Personalities enable servers by name. A server's readOnly/destructive/idempotent/openWorld hints are ignored unless its entry says `trustAnnotations: true`.",
      ),
    storage: storageConfigSchema,
    serve: serveConfigSchema.optional(),
    defaultPersonality: z
      .string()
      .default('default')
      .describe(
        'The personality used when none is named: personalities/NAME.yaml beside this file, or an embedded one.',
      ),
  })
  .strict();

export type QuiverConfig = z.infer<typeof quiverConfigSchema>;
export type QuiverConfigInput = z.input<typeof quiverConfigSchema>;
