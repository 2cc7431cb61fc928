import { type PluginDefinition, QuiverError, SUPPORTED_PLUGIN_API_VERSIONS } from '@quiver/types';
import { z } from 'zod';
import { isConfigSchema } from './plugin-config.js';

export const PLUGIN_SERVICE_NAMES = ['logger', 'config', 'paths', 'lifecycle', 'events'] as const;

/** `package.json#quiver`: where a plugin package's entry is. */
export const packageManifestSchema = z.object({
  plugin: z
    .string()
    .min(1)
    .describe('Path of the module that default-exports the plugin, relative to package.json.'),
});

const pluginDefinitionSchema = z.object({
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]*$/,
      'must be lowercase letters, digits, ".", "_" or "-", starting with a letter or digit',
    ),
  apiVersion: z.number().int(),
  version: z.string().min(1),
  description: z.string().optional(),
  requires: z.array(z.string()).optional(),
  dependsOn: z.array(z.string()).optional(),
  config: z
    .custom(
      (value) => value === undefined || isConfigSchema(value),
      'must be a zod schema, e.g. z.object({ … })',
    )
    .optional(),
  register: z.custom<PluginDefinition['register']>(
    (value) => typeof value === 'function',
    'must be a function',
  ),
});

function issuesText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** Validates what a plugin module exports; errors name the zod path and the source. */
export function validatePluginDefinition(value: unknown, source: string): PluginDefinition<any, any> {
  const parsed = pluginDefinitionSchema.safeParse(value);
  if (!parsed.success) {
    throw new QuiverError(
      'plugin_bad_manifest',
      `Plugin from ${source} is not a valid plugin definition: ${issuesText(parsed.error)}.`,
      {
        fix: 'Default-export definePlugin({ id, apiVersion: 1, version, register(ctx) { … } }) from @quiver/types.',
        details: { source, issues: parsed.error.issues },
      },
    );
  }
  const plugin = value as PluginDefinition;
  if (!(SUPPORTED_PLUGIN_API_VERSIONS as readonly number[]).includes(plugin.apiVersion)) {
    throw new QuiverError(
      'plugin_api_version',
      `Plugin "${plugin.id}" (${source}) declares apiVersion ${plugin.apiVersion}; this host supports apiVersion ${SUPPORTED_PLUGIN_API_VERSIONS.join(', ')}.`,
      {
        fix: `Build the plugin against a @quiver/types release with apiVersion ${SUPPORTED_PLUGIN_API_VERSIONS.at(-1)}, or upgrade Quiver.`,
        details: {
          plugin: plugin.id,
          apiVersion: plugin.apiVersion,
          supported: [...SUPPORTED_PLUGIN_API_VERSIONS],
        },
      },
    );
  }
  const unknown = (plugin.requires ?? []).filter(
    (name) => !(PLUGIN_SERVICE_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    throw new QuiverError(
      'plugin_missing_dependency',
      `Plugin "${plugin.id}" requires ${unknown.map((name) => `"${name}"`).join(', ')}, which this host does not provide.`,
      {
        fix: `Ask only for services the host provides: ${PLUGIN_SERVICE_NAMES.join(', ')}.`,
        details: { plugin: plugin.id, missing: unknown },
      },
    );
  }
  return plugin;
}

export function validatePackageManifest(
  value: unknown,
  packageJsonPath: string,
): z.infer<typeof packageManifestSchema> {
  const parsed = packageManifestSchema.safeParse(value);
  if (!parsed.success) {
    throw new QuiverError(
      'plugin_bad_manifest',
      `${packageJsonPath} has no valid "quiver" entry: ${issuesText(parsed.error).replace(/^/, 'quiver.')}.`,
      {
        fix: 'Add "quiver": { "plugin": "./dist/index.js" } to the package.json, pointing at the module that default-exports the plugin.',
        details: { file: packageJsonPath },
      },
    );
  }
  return parsed.data;
}
