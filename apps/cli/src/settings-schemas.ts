import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The JSON Schemas shipped in @quiver/cli (`schemas/`), generated from the zod schemas. */
export const SETTINGS_SCHEMA_FILES = {
  config: 'quiver.schema.json',
  personality: 'personality.schema.json',
  settings: 'settings.schema.json',
} as const;

export type SettingsSchemaKind = keyof typeof SETTINGS_SCHEMA_FILES;

/**
 * JSON Schemas for editors (completion and checking of keys) of quiver.yaml and quiver.local.yaml,
 * personality files, and the user and managed settings files. Quiver itself checks with the zod
 * schemas they come from, which also check what JSON Schema cannot say (permission rule syntax).
 */
export async function settingsJsonSchemas(): Promise<Record<SettingsSchemaKind, object>> {
  const { z } = await import('zod');
  const { quiverConfigSchema, personalitySchema, personSettingsSchema } = await import('@quiver/plugin-host');
  const schema = (source: import('zod').ZodType, title: string, file: string) => ({
    $id: `https://quiver.invalid/schemas/${file}`,
    title,
    ...z.toJSONSchema(source, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
  });
  return {
    config: schema(quiverConfigSchema, 'quiver.yaml (and quiver.local.yaml)', SETTINGS_SCHEMA_FILES.config),
    personality: schema(personalitySchema, 'A Quiver personality file', SETTINGS_SCHEMA_FILES.personality),
    settings: schema(
      personSettingsSchema,
      "Quiver's user ($XDG_CONFIG_HOME/quiver/config.yaml) or managed (/etc/quiver/managed.yaml) settings",
      SETTINGS_SCHEMA_FILES.settings,
    ),
  };
}

/** The installed schema file, for the `# yaml-language-server: $schema=` line of the files init writes. */
export function installedSchemaPath(kind: SettingsSchemaKind): string | undefined {
  const file = fileURLToPath(new URL(`../schemas/${SETTINGS_SCHEMA_FILES[kind]}`, import.meta.url));
  return existsSync(file) ? file : undefined;
}

/** The first line that points an editor's YAML language server at the schema. */
export function schemaComment(kind: SettingsSchemaKind): string {
  const file = installedSchemaPath(kind);
  return file ? `# yaml-language-server: $schema=${file}\n` : '';
}
