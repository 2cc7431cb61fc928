import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QuiverError } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { configKeyLocation, loadConfigFile } from '../src/index.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function configFile(text: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'quiver-config-lines-'));
  directories.push(directory);
  const file = path.join(directory, 'quiver.yaml');
  writeFileSync(file, text);
  return file;
}

function loadError(file: string): QuiverError {
  try {
    loadConfigFile(file);
  } catch (error) {
    if (error instanceof QuiverError) return error;
    throw error;
  }
  throw new Error('the config loaded');
}

describe('quiver.yaml errors', () => {
  it('name the file, line and column of an unknown key, with a did-you-mean', () => {
    const file = configFile('workspace: .\ndefaultPersonalty: coder\n');
    const error = loadError(file);
    expect(error.code).toBe('config_invalid');
    expect(error.message).toContain(
      `${file}:2:1: defaultPersonalty: unknown key. Did you mean "defaultPersonality"?`,
    );
  });

  it('name the line and column of a bad value deep in the file', () => {
    const file = configFile('plugins: []\nmcpServers:\n  good:\n    command: node\n  bad: 3\n');
    expect(loadError(file).message).toContain(`${file}:5:3: mcpServers.bad:`);
  });

  it('name the line of a YAML syntax error', () => {
    const file = configFile('plugins: [a, b\nworkspace: .\n');
    expect(loadError(file).message).toMatch(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: not valid YAML`),
    );
  });

  it('locate a key of an mcpServers entry for errors found later, by the bridge', () => {
    const file = configFile('mcpServers:\n  typo:\n    comand: node\n');
    expect(configKeyLocation(file, ['mcpServers', 'typo', 'comand'])).toBe(`${file}:3:5`);
    expect(configKeyLocation(file, ['mcpServers', 'missing'])).toBe(`${file}:1:1`);
  });
});
