import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverError } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuiverConfig } from '../src/config/config-schema.js';
import { pinTrustedCode } from '../src/trust/code-pins.js';
import { CodeTrust } from '../src/trust/code-trust.js';

let workspace: string;
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-server-pins-')));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

function write(relative: string, content: string): string {
  const file = path.join(workspace, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** Trusts a stdio server as `quiver trust` does, and answers what a later start would be told. */
function trustServer(server: Record<string, unknown>): () => string | undefined {
  const config = {
    plugins: [],
    mcpServers: { local: { cwd: workspace, ...server } },
  } as unknown as QuiverConfig;
  const pins = pinTrustedCode(config, { workspace });
  const trust = new CodeTrust(pins, { workspace, baseDirs: [workspace], basis: 'record' });
  return () => {
    try {
      trust.checkServer('local', config.mcpServers.local as Record<string, unknown>);
      return undefined;
    } catch (error) {
      expect((error as QuiverError).code).toBe('code_pin_changed');
      return (error as Error).message;
    }
  };
}

describe('the code a trusted stdio server runs from the workspace', () => {
  it('follows a TypeScript script into the .ts files it imports as .js, and a .js planted beside one', () => {
    write('tools/server.ts', "import { greeting } from './lib.js';\nconsole.log(greeting());\n");
    const lib = write('tools/lib.ts', "export const greeting = (): string => 'trusted';\n");
    const check = trustServer({ command: 'npx', args: ['tsx', 'tools/server.ts'] });
    expect(check()).toBeUndefined();
    write('tools/lib.ts', "export const greeting = (): string => 'edited';\n");
    expect(check()).toContain(`${lib} changed`);
    write('tools/lib.ts', "export const greeting = (): string => 'trusted';\n");
    const planted = write('tools/lib.js', "export const greeting = () => 'planted';\n");
    expect(check()).toContain(`${planted} appeared`);
  });

  it('follows a module run with python -m, and what it imports from the working directory', () => {
    write('tools/__init__.py', '');
    write('tools/server.py', 'from tools import answers\nimport helpers.text\n');
    const answers = write('tools/answers.py', "GREETING = 'trusted'\n");
    const text = write('helpers/text.py', "def say(): return 'trusted'\n");
    const check = trustServer({ command: 'python3', args: ['-m', 'tools.server'] });
    expect(check()).toBeUndefined();
    // Python writes its own caches as it runs: not a change.
    write('tools/__pycache__/server.cpython-311.pyc', 'cache');
    expect(check()).toBeUndefined();
    write('helpers/text.py', "def say(): return 'edited'\n");
    expect(check()).toContain(`${text} changed`);
    write('helpers/text.py', "def say(): return 'trusted'\n");
    write('tools/answers.py', "GREETING = 'edited'\n");
    expect(check()).toContain(`${answers} changed`);
  });

  it('pins a module on PYTHONPATH inside the workspace, and one planted before the standard library', () => {
    write('server.py', 'import json\nimport shared\n');
    const shared = write('lib/shared.py', "VALUE = 'trusted'\n");
    const check = trustServer({ command: 'python3', args: ['server.py'], env: { PYTHONPATH: 'lib' } });
    expect(check()).toBeUndefined();
    write('lib/shared.py', "VALUE = 'edited'\n");
    expect(check()).toContain(`${shared} changed`);
    write('lib/shared.py', "VALUE = 'trusted'\n");
    const shadow = write('json/__init__.py', 'raise SystemExit(3)\n');
    expect(check()).toContain(`${path.dirname(shadow)} appeared`);
  });

  it('pins the installed packages of a virtual environment in the workspace whose interpreter it runs', () => {
    // The layout `python3 -m venv .venv` makes: an interpreter linked out of the workspace, lib/ inside it.
    write('.venv/pyvenv.cfg', 'home = /usr/bin\ninclude-system-site-packages = false\n');
    mkdirSync(path.join(workspace, '.venv/bin'), { recursive: true });
    symlinkSync(process.execPath, path.join(workspace, '.venv/bin/python'));
    const installed = write('.venv/lib/python3.11/site-packages/mcp_kit/__init__.py', "NAME = 'trusted'\n");
    write('server.py', 'import mcp_kit\n');
    const check = trustServer({ command: '.venv/bin/python', args: ['server.py'] });
    expect(check()).toBeUndefined();
    write('.venv/lib/python3.11/site-packages/mcp_kit/__pycache__/__init__.cpython-311.pyc', 'cache');
    expect(check()).toBeUndefined();
    write('.venv/lib/python3.11/site-packages/mcp_kit/__init__.py', "NAME = 'edited'\n");
    expect(check()).toContain(`${installed} changed`);
  });

  it('pins a script named in an option value, such as node --import=./hook.mjs', () => {
    write('tools/server.mjs', 'console.log(1);\n');
    const hook = write('tools/hook.mjs', 'globalThis.trusted = true;\n');
    const check = trustServer({
      command: process.execPath,
      args: ['--import=./tools/hook.mjs', 'tools/server.mjs'],
    });
    expect(check()).toBeUndefined();
    write('tools/hook.mjs', 'globalThis.trusted = false;\n');
    expect(check()).toContain(`${hook} changed`);
  });
});
