import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

describe('a first-party tool called with an argument it does not take', () => {
  let workspace: string;
  let quiver: Quiver;
  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-unknown-args-')));
    mkdirSync(path.join(workspace, 'src'));
    writeFileSync(path.join(workspace, 'notes.txt'), 'one\ntwo\nthree\n');
    quiver = await createQuiver({ workspace, discoverConfig: false });
  });
  afterAll(async () => {
    await quiver.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('refuses read_file with a misspelt start_line instead of reading the whole file', async () => {
    const [result] = await quiver
      .createSession()
      .execute([{ name: 'read_file', args: { path: 'notes.txt', start_lin: 3 } }]);
    expect(result).toEqual({
      ok: false,
      code: 'input_invalid',
      error:
        'Invalid arguments for "read_file": unknown argument "start_lin" (did you mean "start_line"?); "read_file" takes: path, start_line, end_line',
    });
  });

  it('refuses terminal with a misspelt cwd instead of running the command in the workspace root', async () => {
    const session = quiver.createSession({ permissions: { allow: ['terminal'] } });
    const [result] = await session.execute([{ name: 'terminal', args: { command: 'pwd', cwdd: 'src' } }]);
    expect(result).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(!result?.ok && result?.error).toBe(
      'Invalid arguments for "terminal": unknown argument "cwdd" (did you mean "cwd"?); "terminal" takes: command, cwd, timeout_ms',
    );
    const [spelt] = await session.execute([{ name: 'terminal', args: { command: 'pwd', cwd: 'src' } }]);
    expect(spelt?.ok && spelt.value).toContain(path.join(workspace, 'src'));
  }, 120_000);

  it('tells the model up front that first-party tools take no other keys', () => {
    const definitions = quiver.createSession().pool().definitions;
    const readFile = definitions.find((definition) => definition.name === 'read_file');
    expect(readFile?.parameters).toMatchObject({ type: 'object', additionalProperties: false });
    const open = definitions.filter(
      (definition) =>
        definition.parameters.type === 'object' && definition.parameters.additionalProperties !== false,
    );
    expect(open.map((definition) => definition.name)).toEqual([]);
  });
});
