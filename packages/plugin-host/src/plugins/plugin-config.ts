import { type PluginDefinition, QuiverError } from '@quiver/types';
import { z } from 'zod';

/** True for a zod schema (from any copy of zod): what `definePlugin({ config })` takes. */
export function isConfigSchema(value: unknown): value is z.ZodType {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function' &&
    '_zod' in value
  );
}

/** Where a plugin's settings are written, for error messages. */
export function configLocation(pluginId: string): string {
  return `\`pluginConfig.${pluginId}\` in quiver.yaml (or \`config\` of the \`{ id: ${pluginId}, config }\` entry in the personality's \`plugins\`)`;
}

/**
 * The plugin's settings parsed by its `config` schema (defaults applied); a mismatch is a
 * load error that repeats the schema's messages by key path.
 */
export function parsePluginConfig(
  definition: PluginDefinition<any, any>,
  raw: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const schema = definition.config as unknown;
  if (!isConfigSchema(schema)) return raw;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const issues = parsed.error.issues.map((issue) => ({
    key: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
    message: issue.message,
  }));
  const keys = [...new Set(issues.map((issue) => issue.key))].filter((key) => key !== '(root)');
  throw new QuiverError(
    'config_invalid',
    `Plugin "${definition.id}" settings are invalid:\n${issues.map((issue) => `  - ${issue.key}: ${issue.message}`).join('\n')}`,
    {
      fix: `Correct ${keys.length > 0 ? keys.map((key) => `\`${key}\``).join(', ') : 'the settings'} in ${configLocation(definition.id)}; the plugin loads once they match its schema.`,
      details: { plugin: definition.id, issues },
    },
  );
}

export interface PluginSettingDescription {
  key: string;
  /** JSON Schema type, e.g. `string`, `integer`, `"a" | "b"`. */
  type: string;
  required: boolean;
  default?: unknown;
  description?: string;
}

/** The top-level keys of a plugin's settings schema, for `quiver plugins`; undefined without one. */
export function describePluginSettings(
  definition: PluginDefinition<any, any>,
): PluginSettingDescription[] | undefined {
  const schema = definition.config as unknown;
  if (!isConfigSchema(schema)) return undefined;
  let json: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as typeof json;
  } catch {
    return undefined;
  }
  return Object.entries(json.properties ?? {}).map(([key, property]) => ({
    key,
    type: Array.isArray(property.enum)
      ? property.enum.map((value) => JSON.stringify(value)).join(' | ')
      : String(property.type ?? 'any'),
    required: (json.required ?? []).includes(key) && !('default' in property),
    ...('default' in property ? { default: property.default } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}
