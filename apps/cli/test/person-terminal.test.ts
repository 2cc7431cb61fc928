import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import type { ToolResult } from '@quiver/types';
import { createQuiver, type Quiver } from '@quiver/wiring';
import { afterEach, describe, expect } from 'vitest';
import { BIN, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-person-terminal-');
const open: Quiver[] = [];
afterEach(async () => {
  for (const quiver of open.splice(0)) await quiver.close();
  dirs.cleanup();
});

const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : (result?.error ?? ''));

/** The command the model types: `quiver trust`, with its trust records kept in a test directory. */
const trustCommand = (dataHome: string) => `XDG_DATA_HOME=${dataHome} ${process.execPath} ${BIN} trust`;
const clearedTrustCommand = (dataHome: string) => `env -i PATH=/usr/bin:/bin ${trustCommand(dataHome)}`;
const clearedCall = (dataHome: string) =>
  `env -i PATH=/usr/bin:/bin XDG_DATA_HOME=${dataHome} ${process.execPath} ${BIN} --trust-project call terminal --args '{"command":"touch made-by-call"}'`;
const clearedMcpAdd = (dataHome: string) =>
  `env -i PATH=/usr/bin:/bin XDG_DATA_HOME=${dataHome} ${process.execPath} ${BIN} mcp add --scope local planted -- /bin/true`;

/** A workspace whose configuration is not trusted yet, and a session that may type those commands on a pty. */
async function session() {
  const workspace = dirs.make();
  const dataHome = dirs.make();
  write(
    path.join(workspace, 'quiver.yaml'),
    `mcpServers:\n  marker:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["-e", "0"]\ndefaultPersonality: pty\n`,
  );
  const allow = [
    'terminal_start(exec bash --norc -i)',
    `terminal_write(${trustCommand(dataHome)})`,
    `terminal_write(${clearedTrustCommand(dataHome)})`,
    `terminal_write(${clearedMcpAdd(dataHome)})`,
    `terminal_write(${clearedCall(dataHome)})`,
    'terminal_read',
  ];
  write(
    path.join(workspace, 'personalities/pty.yaml'),
    `plugins: [tools-terminal]\nsandbox: off\npermissions:\n  allow: [${allow.map((rule) => JSON.stringify(rule)).join(', ')}]\n`,
  );
  const quiver = await createQuiver({ workspace, env: process.env, trustProject: true });
  open.push(quiver);
  const tools = quiver.createSession();
  const call = async (name: string, args: Record<string, unknown>) =>
    (await tools.execute([{ name, args }]))[0];
  return { workspace, dataHome, call };
}

async function readUntil(
  call: (name: string, args: Record<string, unknown>) => Promise<ToolResult | undefined>,
  id: string,
  expected: RegExp,
): Promise<string> {
  let seen = '';
  for (let attempt = 0; attempt < 400 && !expected.test(seen); attempt++) {
    seen += textOf(await call('terminal_read', { id }));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return seen;
}

describe('commands that ask a person, on a terminal Quiver allocated for the model', () => {
  itWithSystemTools(['script'])(
    'quiver trust, quiver mcp add and the permission prompt refuse on a pty shell of terminal_start, with or without the environment',
    async () => {
      const { workspace, dataHome, call } = await session();
      const started = await call('terminal_start', { command: 'exec bash --norc -i', pty: true });
      expect(started, textOf(started)).toMatchObject({ ok: true });
      const id = (started?.ok && (started.structured as { id: string }).id) as string;
      // Typed into the shell on the terminal, as the model would; then once more with a cleared environment.
      const typed = await call('terminal_write', { id, text: `${trustCommand(dataHome)}\n` });
      expect(typed, textOf(typed)).toMatchObject({ ok: true });
      const first = await readUntil(call, id, /\[(trust_needs_terminal|person_only_command)\]|Trust this/);
      expect(first).toMatch(/\[(trust_needs_terminal|person_only_command)\]/);
      expect(first).not.toContain('Trust this configuration');
      await call('terminal_write', { id, text: `${clearedTrustCommand(dataHome)}\n` });
      // Without the environment (no marker variable), only the terminal itself tells: it is one Quiver allocated.
      const second = await readUntil(call, id, /\[(trust_needs_terminal|person_only_command)\]|Trust this/);
      expect(second).toMatch(/\[(trust_needs_terminal|person_only_command)\]/);
      expect(second).not.toContain('Trust this configuration');
      expect(existsSync(path.join(dataHome, 'quiver'))).toBe(false);
      // Adding a server widens the configuration: refused on this terminal without the marker variable too.
      await call('terminal_write', { id, text: `${clearedMcpAdd(dataHome)}\n` });
      const added = await readUntil(call, id, /\[person_only_command\]|Added|added/);
      expect(added).toContain('[person_only_command]');
      expect(readFileSync(path.join(workspace, 'quiver.yaml'), 'utf8')).not.toContain('planted');
      expect(existsSync(path.join(workspace, 'quiver.local.yaml'))).toBe(false);
      // A call that needs approval is not asked on this terminal: it is denied as in a headless session.
      await call('terminal_write', { id, text: `${clearedCall(dataHome)}\n` });
      const called = await readUntil(call, id, /headless|Allow|allow once/);
      expect(called).toContain('headless');
      expect(existsSync(path.join(workspace, 'made-by-call'))).toBe(false);
    },
  );
});
