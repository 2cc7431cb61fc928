import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { QuiverEvent, ToolResult } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : `${result?.error}`);

describe('repl scripts off the event loop', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-repl-scripts-')));
    writeFileSync(path.join(workspace, 'notes.txt'), 'one\ntwo\n');
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      'defaultPersonality: scripted\npluginConfig:\n  tools-repl:\n    limits: { timeSeconds: 2 }\n',
    );
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/scripted.yaml'),
      'id: scripted\nplugins: [tools-code, tools-kanban, tools-repl]\nrepl: true\npermissions:\n  allow: [repl, read_file, list_dir, "kanban_*"]\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('aborts an endless loop within 100 ms while another session keeps answering', async () => {
    const spinning = quiver.createSession();
    const other = quiver.createSession();
    try {
      // A warm sandbox first, so the loop below starts at once.
      await spinning.execute([{ name: 'repl', args: { code: '1' } }]);
      const controller = new AbortController();
      const running = spinning.execute([{ name: 'repl', args: { code: 'while (true) {}' } }], {
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      // The loop runs on its own thread: this session's call answers meanwhile.
      const [listed] = await other.execute([{ name: 'kanban_list', args: {} }]);
      expect(listed?.ok, textOf(listed)).toBe(true);
      const [scripted] = await other.execute([
        { name: 'repl', args: { code: '(await tools.list_dir({ path: "." })).text' } },
      ]);
      expect(textOf(scripted)).toContain('notes.txt');
      const abortedAt = performance.now();
      controller.abort();
      const [stopped] = await running;
      expect(performance.now() - abortedAt).toBeLessThan(100);
      expect(stopped).toMatchObject({ ok: false, code: 'aborted' });
      const [again] = await spinning.execute([{ name: 'repl', args: { code: '6 * 7' } }]);
      expect(textOf(again)).toBe('42');
    } finally {
      await spinning.close();
      await other.close();
    }
  });

  it('stops a script at the configured time limit with an error that states it and how to raise it', async () => {
    const session = quiver.createSession();
    try {
      const [late] = await session.execute([{ name: 'repl', args: { code: 'for (;;) {}' } }]);
      expect(late).toMatchObject({ ok: false, code: 'timeout' });
      expect(textOf(late)).toContain('time limit of 2 s');
      expect(textOf(late)).toContain('pluginConfig.tools-repl.limits');
    } finally {
      await session.close();
    }
  });

  it('runs timers, reports the line of an error, and warns when variables are gone', async () => {
    const session = quiver.createSession();
    try {
      const [timed] = await session.execute([
        {
          name: 'repl',
          args: {
            code: 'const seen = [];\nconst id = setInterval(() => seen.push("tick"), 10);\nawait new Promise((done) => setTimeout(done, 55));\nclearInterval(id);\nseen.length >= 3',
          },
        },
      ]);
      expect(textOf(timed)).toBe('true');
      const [thrown] = await session.execute([
        { name: 'repl', args: { code: 'const a = 1;\nconst b = 2;\nnull.property;' } },
      ]);
      expect(textOf(thrown)).toMatch(/repl\.js:3\b/);
      const fresh = quiver.createSession();
      try {
        const [missing] = await fresh.execute([{ name: 'repl', args: { code: 'total + 1' } }]);
        expect(textOf(missing)).toContain('ReferenceError');
        expect(textOf(missing)).toContain('started empty');
      } finally {
        await fresh.close();
      }
    } finally {
      await session.close();
    }
  });

  it('shortens a 1 MB result to its head and tail, keeping the structure and saying what was cut', async () => {
    const session = quiver.createSession();
    try {
      const [big] = await session.execute([
        {
          name: 'repl',
          args: {
            code: 'const rows = Array.from({ length: 10000 }, (_, i) => ({ id: i, body: "x".repeat(100) })); ({ count: rows.length, rows })',
          },
        },
      ]);
      const text = textOf(big);
      expect(text.length).toBeLessThan(90_000);
      expect(text).toMatch(/^\[The result was shortened .* array items cut/);
      const data = JSON.parse(text.slice(text.indexOf('\n') + 1)) as { count: number; rows: unknown[] };
      expect(data.count).toBe(10_000);
      expect(data.rows[0]).toEqual({ id: 0, body: 'x'.repeat(100) });
      expect(data.rows.at(-1)).toEqual({ id: 9_999, body: 'x'.repeat(100) });
      expect(data.rows.find((row) => typeof row === 'string')).toMatch(/items cut/);
    } finally {
      await session.close();
    }
  });

  it("gives a script a tool's structured value with its text, the text alone on request, and a ToolError with the code", async () => {
    const session = quiver.createSession();
    try {
      const [answered] = await session.execute([
        {
          name: 'repl',
          args: {
            code: `const value = await tools.read_file({ path: 'notes.txt' });
const text = await tools.call('read_file', { path: 'notes.txt' }, { text: true });
let failure;
try { await tools.read_file({ path: 'missing.txt' }); } catch (error) { failure = { name: error.name, code: error.code }; }
({ kind: typeof value, keys: Object.keys(value), sameText: value.text === text, lines: text.split('\\n').length, failure })`,
          },
        },
      ]);
      const answer = JSON.parse(textOf(answered)) as {
        kind: string;
        keys: string[];
        sameText: boolean;
        lines: number;
        failure: { name: string; code: string };
      };
      expect(answer.kind).toBe('object');
      expect(answer.keys.length).toBeGreaterThan(1);
      expect(answer.keys.at(-1)).toBe('text');
      expect(answer.sameText).toBe(true);
      expect(answer.lines).toBeGreaterThanOrEqual(2);
      expect(answer.failure.name).toBe('ToolError');
      expect(answer.failure.code).toMatch(/^[a-z_]+$/);
    } finally {
      await session.close();
    }
  });

  it('loops over kanban tickets by their structured ids, not by parsing display text', async () => {
    const session = quiver.createSession();
    try {
      const [made] = await session.execute([
        {
          name: 'repl',
          args: {
            code: `const titles = ['Fix #12 in the parser', 'Ship 3.0', 'Write docs'];
for (const title of titles) await tools.kanban_create({ title });
const { tickets } = await tools.kanban_list({});
for (const ticket of tickets) await tools.kanban_move({ id: ticket.id, status: 'done', version: ticket.version });
const after = await tools.kanban_list({});
({ ids: tickets.map((t) => t.id), columns: after.tickets.map((t) => t.status), text: typeof after.text })`,
          },
        },
      ]);
      const answer = JSON.parse(textOf(made)) as { ids: unknown[]; columns: string[]; text: string };
      expect(answer.ids).toHaveLength(3);
      expect(answer.ids).not.toContain(12);
      expect(answer.columns).toEqual(['done', 'done', 'done']);
      expect(answer.text).toBe('string');
    } finally {
      await session.close();
    }
  });
});

const everything = path.join(
  path.dirname(
    createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'),
  ),
  'dist/index.js',
);

describe('repl scripts and MCP tools', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-repl-mcp-')));
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  everything:\n    command: ${process.execPath}\n    args: [${JSON.stringify(everything)}, stdio]\ndefaultPersonality: scripted\n`,
    );
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/scripted.yaml'),
      'id: scripted\nplugins: [mcp-bridge, tools-repl]\nmcpServers:\n  everything: {}\npermissions:\n  allow: [repl, mcp__everything]\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('stops the calls of a script that lost its sandbox, instead of letting them run on', async () => {
    const session = quiver.createSession();
    try {
      const started = performance.now();
      // The call leaves the sandbox at the first wait; then the script exhausts its memory.
      const [bombed] = await session.execute([
        {
          id: 'bomb-1',
          name: 'repl',
          args: {
            code: `const pending = tools['mcp__everything__trigger-long-running-operation']({ duration: 20, steps: 4 });
await new Promise((done) => setTimeout(done, 300));
const hoard = [];
while (true) hoard.push({ index: hoard.length, text: 'x'.repeat(64) + hoard.length });`,
          },
        },
      ]);
      expect(bombed).toMatchObject({ ok: false });
      let inner: QuiverEvent | undefined;
      while (!inner && performance.now() - started < 15_000) {
        const events = (await quiver.host.eventLog.sessionEvents(session.id)) as QuiverEvent[];
        inner = events.find(
          (event) =>
            event.type === 'tool.execution_complete' &&
            'parentCallId' in event &&
            event.parentCallId === 'bomb-1',
        );
        if (!inner) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Left running, the operation would finish successfully after 20 s.
      expect(inner).toMatchObject({ success: false });
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      await session.close();
    }
  });

  it("calls a real MCP server's tools right after the session starts, by name and camel-cased alias", async () => {
    const session = quiver.createSession();
    try {
      // No wait for readiness: the script's first call waits for the server itself.
      const [called] = await session.execute([
        {
          name: 'repl',
          args: {
            code: `const echoed = await tools.mcp__everything__echo({ message: 'from a script' });
const sum = await tools['mcp__everything__get-sum']({ a: 2, b: 40 });
const again = await tools.mcp__everything__getSum({ a: 1, b: 1 });
({ echoed: typeof echoed === 'string' ? echoed : echoed.text, sum: typeof sum === 'string' ? sum : sum.text, again: typeof again })`,
          },
        },
      ]);
      expect(called?.ok, textOf(called)).toBe(true);
      const answer = JSON.parse(textOf(called)) as { echoed: string; sum: string; again: string };
      expect(answer.echoed).toContain('from a script');
      expect(answer.sum).toContain('42');
    } finally {
      await session.close();
    }
  });
});
