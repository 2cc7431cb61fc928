import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ok } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

function clientTool(name: string, extra: Record<string, unknown> = {}) {
  const ran: unknown[] = [];
  return {
    ran,
    definition: {
      name,
      description: `Client tool ${name} for the embedding app.`,
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
      execute: (args: unknown) => {
        ran.push(args);
        return ok(`${name} ran`);
      },
      ...extra,
    },
  };
}

const names = (pool: { definitions: { name: string }[] }) => pool.definitions.map((d) => d.name);

describe('external tools of child sessions and skipPermission', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-external-')));
    writeFileSync(path.join(workspace, 'secret.txt'), 'hunter2\n');
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('merges a child’s own external tools with the parent’s by name and keeps a tool only the child has', async () => {
    const parent = quiver.createSession({
      externalTools: [clientTool('lookup').definition, clientTool('notify').definition],
      permissions: { allow: ['lookup', 'notify', 'summarise'] },
    });
    const childLookup = clientTool('lookup', { description: 'The child’s own lookup.' });
    const summarise = clientTool('summarise');
    const child = parent.createChild({
      externalTools: [childLookup.definition, summarise.definition],
      permissions: { allow: ['lookup', 'summarise'] },
    });
    const pool = child.pool();
    expect(names(pool)).toEqual(expect.arrayContaining(['lookup', 'notify', 'summarise']));
    expect(pool.definitions.find((d) => d.name === 'lookup')?.description).toBe('The child’s own lookup.');
    const [lookup, only] = await child.execute([
      { name: 'lookup', args: { path: 'a' } },
      { name: 'summarise', args: { path: 'b' } },
    ]);
    expect(lookup).toMatchObject({ ok: true });
    expect(childLookup.ran).toHaveLength(1);
    expect(only).toMatchObject({ ok: true, value: 'summarise ran' });
    // The parent's deny rules still bound what the child brings itself.
    const bounded = quiver
      .createSession({ permissions: { deny: ['summarise'] } })
      .createChild({ externalTools: [clientTool('summarise').definition] });
    expect(names(bounded.pool())).not.toContain('summarise');
  });

  it('counts skipPermission in the external-tool signature', () => {
    const session = quiver.createSession({ externalTools: [clientTool('lookup').definition] });
    session.pool();
    const before = session.externalVersion;
    session.updateExternalTools([clientTool('lookup', { skipPermission: true }).definition]);
    expect(session.externalVersion).toBe(before + 1);
    session.updateExternalTools([clientTool('lookup', { skipPermission: true }).definition]);
    expect(session.externalVersion).toBe(before + 1);
  });

  it('lets skipPermission skip asks only: a replaced built-in keeps its deny rules, protected paths and workspace boundary', async () => {
    const write = clientTool('write_file', { skipPermission: true, overridesBuiltInTool: true });
    const read = clientTool('read_file', { skipPermission: true, overridesBuiltInTool: true });
    const session = quiver.createSession({
      externalTools: [write.definition, read.definition],
      permissions: { deny: ['read_file(secret.txt)'] },
    });
    const [allowed, denied, outside, protectedFile] = await session.execute([
      { name: 'read_file', args: { path: 'notes.txt' } },
      { name: 'read_file', args: { path: 'secret.txt' } },
      { name: 'read_file', args: { path: '../elsewhere.txt' } },
      { name: 'write_file', args: { path: '.git/hooks/pre-commit', content: 'echo planted' } },
    ]);
    expect(allowed).toMatchObject({ ok: true });
    expect(denied).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(outside).toMatchObject({ ok: false });
    expect(protectedFile).toMatchObject({ ok: false });
    expect(read.ran).toEqual([{ path: 'notes.txt' }]);
    expect(write.ran).toEqual([]);
  });
});
