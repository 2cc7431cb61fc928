import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuiverEvent, ToolResult } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : `${result?.error}`);

const MARKER = 'QUIVER_MARKER_7f3';
const MARKED = new Map([
  ['src/file-2.ts', 118],
  ['src/file-5.ts', 42],
  ['src/file-9.ts', 187],
]);

/** Ten source files of about 20 KB (200 lines, which read_file shows whole); three carry the marker on one line each. */
function writeSources(workspace: string): void {
  mkdirSync(path.join(workspace, 'src'));
  for (let index = 0; index < 10; index++) {
    const file = `src/file-${index}.ts`;
    const lines: string[] = [];
    for (let line = 1; line <= 200; line++) {
      lines.push(
        line === MARKED.get(file)
          ? `export const flag${line} = '${MARKER}';`
          : `export function helper${index}_${line}(value: number, scale: number): number { return value * scale + ${line}; }`,
      );
    }
    writeFileSync(path.join(workspace, file), `${lines.join('\n')}\n`);
  }
  mkdirSync(path.join(workspace, 'secrets'));
  writeFileSync(path.join(workspace, 'secrets', 'token.txt'), 'sk-live-0000\n');
}

const SCRIPT = `
const found = [];
for (let i = 0; i < 10; i++) {
  const file = 'src/file-' + i + '.ts';
  const { text } = await tools.read_file({ path: file });
  text.split('\\n').forEach((line, index) => {
    if (line.includes('${MARKER}')) found.push(file + ':' + (line.match(/^\\s*(\\d+)/)?.[1] ?? index + 1));
  });
}
found`;

describe('the repl tool and REPL mode', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-repl-')));
    writeSources(workspace);
    writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: scripted\n');
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/scripted.yaml'),
      'id: scripted\nplugins: [tools-code, tools-terminal, tools-repl]\nrepl: true\npermissions:\n  allow: [repl, read_file, grep_search]\n  deny: ["read_file(secrets/**)"]\n',
    );
    writeFileSync(
      path.join(workspace, 'personalities/plain.yaml'),
      'id: plain\nplugins: [tools-code, tools-repl]\npermissions:\n  allow: [repl, read_file]\n',
    );
    writeFileSync(
      path.join(workspace, 'personalities/minimal.yaml'),
      'id: minimal\nplugins: [tools-code, tools-terminal, tools-kanban, tools-repl]\nrepl: true\nsimpleMode: true\npermissions:\n  allow: [repl]\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('finds a marker in ten files with one call whose result is a small fraction of reading them directly', async () => {
    const direct = quiver.createSession({ personality: 'plain' });
    const scripted = quiver.createSession({ personality: 'scripted' });
    try {
      // One read per turn, so that no read is cut to share a turn's budget with the others.
      let directChars = 0;
      for (let index = 0; index < 10; index++) {
        const [read] = await direct.execute([{ name: 'read_file', args: { path: `src/file-${index}.ts` } }]);
        directChars += textOf(read).length;
      }
      const [result] = await scripted.execute([{ id: 'script-1', name: 'repl', args: { code: SCRIPT } }]);
      expect(result?.ok, textOf(result)).toBe(true);
      const found = JSON.parse(textOf(result)) as string[];
      expect(found).toEqual([...MARKED].map(([file, line]) => `${file}:${line}`));
      expect(textOf(result).length).toBeLessThan(1_000);
      expect(directChars).toBeGreaterThan(200_000);

      // Ten inner calls, each requested, permission-checked and completed under the script's call.
      const events = (await quiver.host.eventLog.sessionEvents(scripted.id)) as QuiverEvent[];
      const inner = events.filter(
        (event) =>
          event.type === 'tool.execution_complete' &&
          'parentCallId' in event &&
          event.parentCallId === 'script-1',
      );
      expect(inner).toHaveLength(10);

      // With reads asked, every inner read is put to the person, once, under its own call id.
      const asked: string[] = [];
      const audited = quiver.createSession({
        personality: 'scripted',
        permissions: { ask: ['read_file'] },
        permissionResolver: {
          async resolve(prompt) {
            asked.push(`${prompt.callId} ${(prompt.args as { path: string }).path}`);
            return { behavior: 'allow', scope: 'once' };
          },
        },
      });
      try {
        const [again] = await audited.execute([{ id: 'script-2', name: 'repl', args: { code: SCRIPT } }]);
        expect(JSON.parse(textOf(again))).toEqual(found);
        expect(asked).toEqual([...Array(10).keys()].map((i) => `script-2.${i + 1} src/file-${i}.ts`));
      } finally {
        await audited.close();
      }
    } finally {
      await direct.close();
      await scripted.close();
    }
  });

  it('lets no script reach a path a deny rule covers, and the session goes on', async () => {
    const session = quiver.createSession({ personality: 'scripted' });
    try {
      const attempts = [
        'await tools.read_file({ path: "secrets/token.txt" })',
        'await tools.call("read_file", { path: "./src/../secrets/token.txt" })',
        'await tools.grep_search({ pattern: "sk-live", path: "secrets" })',
        'await tools.terminal({ command: "cat secrets/token.txt" })',
      ];
      for (const code of attempts) {
        const [result] = await session.execute([{ name: 'repl', args: { code } }]);
        expect(textOf(result), code).not.toContain('sk-live-0000');
      }
      const [refused] = await session.execute([
        {
          name: 'repl',
          args: {
            code: 'let why; try { await tools.read_file({ path: "secrets/token.txt" }) } catch (e) { why = e.message }\nwhy',
          },
        },
      ]);
      expect(textOf(refused)).toMatch(/not_permitted.*secrets/);
      const [after] = await session.execute([{ name: 'repl', args: { code: '1 + 1' } }]);
      expect(textOf(after)).toBe('2');
    } finally {
      await session.close();
    }
  });

  it('takes the wrapped primitives off the list in REPL mode and names them in the repl description', () => {
    const session = quiver.createSession({ personality: 'scripted' });
    const plain = quiver.createSession({ personality: 'plain' });
    try {
      const names = session.pool().definitions.map((definition) => definition.name);
      expect(names).toContain('repl');
      expect(names).not.toContain('read_file');
      expect(names).not.toContain('terminal');
      expect(session.explain('read_file')).toContain('reachable inside the repl tool');
      const repl = session.pool().definitions.find((definition) => definition.name === 'repl');
      expect(repl?.description).toContain('read_file(args: {');
      expect(plain.pool().definitions.map((definition) => definition.name)).toEqual(
        expect.arrayContaining(['repl', 'read_file']),
      );
    } finally {
      void session.close();
      void plain.close();
    }
  });

  it('leaves only the repl in simple mode with REPL mode', () => {
    const session = quiver.createSession({ personality: 'minimal' });
    try {
      expect(session.pool().definitions.map((definition) => definition.name)).toEqual(['repl']);
      expect(session.explain('kanban_list')).toContain('simple mode');
    } finally {
      void session.close();
    }
  });

  it('keeps variables from one repl call to the next in a session, not across sessions', async () => {
    const first = quiver.createSession({ personality: 'scripted' });
    const second = quiver.createSession({ personality: 'scripted' });
    try {
      await first.execute([{ name: 'repl', args: { code: 'let total = 40' } }]);
      const [again] = await first.execute([{ name: 'repl', args: { code: 'total + 2' } }]);
      expect(textOf(again)).toBe('42');
      const [other] = await second.execute([{ name: 'repl', args: { code: 'typeof total' } }]);
      expect(textOf(other)).toBe('undefined');
      const [reset] = await first.execute([{ name: 'repl', args: { code: 'typeof total', reset: true } }]);
      expect(textOf(reset)).toBe('undefined');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
