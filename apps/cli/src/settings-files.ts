import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SettingsScope } from '@quiver/plugin-host';
import type { GlobalOptions } from './global-options.js';
import { ranByQuiverTools } from './interactive/person-terminal.js';
import { launchEnvironment } from './launch/launch-environment.js';
import { CliError, EXIT } from './output.js';

/**
 * Commands that widen configuration are a person's: run by a command of Quiver's own terminal
 * tool, they refuse (the files are write-protected to tools as well; this says why plainly).
 */
export function refuseInsideQuiverTools(command: string): void {
  if (!ranByQuiverTools()) return;
  throw new CliError(
    `\`${command}\` widens what Quiver may do, and it was run by a command of Quiver's terminal tool; nothing was changed.`,
    `Run \`${command}\` yourself, in your own terminal.`,
    EXIT.usage,
    'person_only_command',
  );
}

export const WRITABLE_SCOPES = ['user', 'project', 'local'] as const;
export type WritableScope = (typeof WRITABLE_SCOPES)[number];

export function parseScope(value: string | undefined, fallback: WritableScope): WritableScope {
  const scope = value ?? fallback;
  if (!WRITABLE_SCOPES.includes(scope as WritableScope))
    throw new CliError(
      `Unknown scope "${scope}".`,
      `Use --scope ${WRITABLE_SCOPES.join(' | ')} (managed settings are the administrator's: edit /etc/quiver/managed.yaml).`,
    );
  return scope as WritableScope;
}

/** Every settings file of this project, strongest first (managed, user, project, local). */
export async function projectSettingsFiles(
  global: GlobalOptions,
): Promise<Array<{ scope: SettingsScope; file: string; exists: boolean }>> {
  const { findConfigFile, settingsFiles } = await import('@quiver/plugin-host');
  const configFile = global.config
    ? path.resolve(global.config)
    : findConfigFile(path.resolve(global.workspace ?? process.cwd()));
  return settingsFiles(configFile, launchEnvironment() as NodeJS.ProcessEnv);
}

/** The file a scope's settings are written to; project and local need a quiver.yaml. */
export async function scopeFile(global: GlobalOptions, scope: WritableScope): Promise<string> {
  const files = await projectSettingsFiles(global);
  const file = files.find((entry) => entry.scope === scope)?.file;
  if (file === undefined)
    throw new CliError(
      `There is no quiver.yaml here (searched from ${process.cwd()} upward), so there is no ${scope} settings file.`,
      'Run `quiver init` in the project first, or use --scope user for settings of your own.',
    );
  return file;
}

/**
 * Edits a YAML settings file keeping its comments and layout: `edit` changes the document, and
 * the result is checked by `check` before it replaces the file (atomically).
 */
export async function editSettingsFile(
  file: string,
  edit: (document: import('yaml').Document) => void,
  check: (text: string) => Promise<void> | void,
): Promise<void> {
  const { parseDocument } = await import('yaml');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const document = parseDocument(text);
  if (document.errors.length > 0)
    throw new CliError(
      `${file} is not valid YAML (${document.errors[0]?.message.split('\n')[0]}); nothing was changed.`,
      'Fix the file first.',
    );
  if (document.contents === null) document.contents = document.createNode({}) as never;
  edit(document);
  const next = document.toString();
  await check(next);
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, next);
  renameSync(temporary, file);
}
