import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, filesystemServer, type Harness, makeTempDir, successText } from './helpers.js';

describe('the bridge against @modelcontextprotocol/server-filesystem', () => {
  let harness: Harness;
  let workspace: { path: string; remove: () => Promise<void> };
  let root: string;

  beforeAll(async () => {
    workspace = await makeTempDir('fs');
    root = await realpath(workspace.path);
    await writeFile(join(root, 'notes.txt'), 'first line\nsecond line\n');
    harness = createHarness({ files: { command: process.execPath, args: [filesystemServer, root] } });
    await harness.bridge.start();
  });
  afterAll(async () => {
    await harness.stop();
    await workspace.remove();
  });

  it('lists the directory the server was given', async () => {
    const { result } = await harness.call('mcp__files__list_directory', { path: root });
    expect(successText(result)).toContain('[FILE] notes.txt');
  });

  it('reads a file', async () => {
    const { result } = await harness.call('mcp__files__read_text_file', { path: join(root, 'notes.txt') });
    expect(successText(result)).toBe('first line\nsecond line\n');
  });

  it('writes a file that is then on disk', async () => {
    const target = join(root, 'written.txt');
    const { result } = await harness.call('mcp__files__write_file', {
      path: target,
      content: 'written by the bridge',
    });
    expect(result.ok).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('written by the bridge');
  });

  it('fails a read outside the allowed directory as a failed result', async () => {
    const { result } = await harness.call('mcp__files__read_text_file', { path: '/etc/hostname' });
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    if (!result.ok) expect(result.error).toMatch(/denied|outside|not allowed/i);
  });
});
