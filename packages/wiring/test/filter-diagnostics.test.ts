import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverEvent } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('what a session reports about the names its filters list', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-filter-notes-')));
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('notes as session.info a listed tool that a deny rule already removed, and warns about a name that matches nothing', async () => {
    const session = quiver.createSession({
      permissions: { deny: ['terminal'] },
      availableTools: ['terminal', 'read_file', 'raed_file'],
      excludedTools: ['write_file'],
    });
    const events: QuiverEvent[] = [];
    session.events.subscribe((event) => events.push(event));
    expect(session.pool().definitions.map((d) => d.name)).toEqual(['read_file']);
    await settle();
    const infos = events.filter((event) => event.type === 'session.info');
    expect(infos).toContainEqual(
      expect.objectContaining({
        code: 'filtered_tool_removed',
        message: expect.stringContaining(
          'availableTools names "terminal", but that tool was already removed (terminal:',
        ),
      }),
    );
    const warnings = events.filter((event) => event.type === 'session.warning');
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: 'unknown_tool_name', message: expect.stringContaining('"raed_file"') }),
    );
    // Names the filters act on get no message.
    expect([...infos, ...warnings].some((event) => JSON.stringify(event).includes('"read_file"'))).toBe(
      false,
    );
    expect([...infos, ...warnings].some((event) => JSON.stringify(event).includes('write_file'))).toBe(false);
  });
});
