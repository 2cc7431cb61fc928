import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { MCP_SERVER_META_KEY } from '@quiver/runtime';
import { ok, type QuiverEvent } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const require = createRequire(import.meta.url);
const everything = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

const settle = () => new Promise((resolve) => setImmediate(resolve));

function clientTool(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: `Client tool ${name} for the embedding app.`,
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
    execute: (args: unknown) => ok(`${name} got ${JSON.stringify(args)}`),
    ...extra,
  };
}

describe('session assembly as Copilot CLI does it', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-assembly-')));
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('announces the first tool list with session.tools_updated', async () => {
    const session = quiver.createSession();
    const events: QuiverEvent[] = [];
    session.events.subscribe((event) => events.push(event));
    const pool = session.pool();
    await settle();
    const updates = events.filter((event) => event.type === 'session.tools_updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ signature: pool.signature, removed: [] });
    expect((updates[0] as { added: string[] }).added).toEqual(pool.definitions.map((d) => d.name));
  });

  it('accepts a client tool without parameters as taking an empty object, and runs it', async () => {
    const { parameters: _none, ...ping } = clientTool('ping');
    const session = quiver.createSession({ externalTools: [ping], permissions: { allow: ['ping'] } });
    const pool = session.pool();
    expect(pool.diagnostics.filter((diagnostic) => diagnostic.level === 'error')).toEqual([]);
    expect(pool.definitions.find((d) => d.name === 'ping')?.parameters).toEqual({
      type: 'object',
      properties: {},
    });
    const [result] = await session.execute([{ name: 'ping', args: {} }]);
    expect(result).toMatchObject({ ok: true, value: 'ping got {}' });
  });

  it('runs a client tool marked skipPermission in a headless session with no rule, and denies the same tool unmarked', async () => {
    const session = quiver.createSession({
      externalTools: [clientTool('trusted_lookup', { skipPermission: true }), clientTool('plain_lookup')],
    });
    const [trusted, plain] = await session.execute([
      { name: 'trusted_lookup', args: { text: 'a' } },
      { name: 'plain_lookup', args: { text: 'b' } },
    ]);
    expect(trusted).toMatchObject({ ok: true, value: 'trusted_lookup got {"text":"a"}' });
    expect(plain).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('still asks for a skipPermission client tool that an ask rule names, so headless it is denied', async () => {
    const session = quiver.createSession({
      externalTools: [clientTool('trusted_lookup', { skipPermission: true })],
      permissions: { ask: ['trusted_lookup'] },
    });
    const [asked] = await session.execute([{ name: 'trusted_lookup', args: { text: 'x' } }]);
    expect(asked).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('still keeps a skipPermission client tool from running when a deny rule names it', async () => {
    const session = quiver.createSession({
      externalTools: [clientTool('trusted_lookup', { skipPermission: true })],
      permissions: { deny: ['trusted_lookup'] },
    });
    expect(session.pool().definitions.map((d) => d.name)).not.toContain('trusted_lookup');
    const [denied] = await session.execute([{ name: 'trusted_lookup', args: { text: 'x' } }]);
    expect(denied).toMatchObject({ ok: false });
    expect(denied?.ok === false && denied.error).toContain('trusted_lookup');
  });

  it('defers a child session’s client tools behind tool_search when the child is over the threshold', () => {
    // About 600 estimated tokens each: 30 of them are over the default 12,000-token threshold.
    const externalTools = Array.from({ length: 30 }, (_, index) =>
      clientTool(`client_${index}`, {
        description: `Client tool client_${index}. ${'Looks things up. '.repeat(140)}`,
      }),
    );
    const parent = quiver.createSession({ model: 'claude-sonnet-4-5', externalTools });
    expect(parent.pool().definitions.some((d) => d.deferLoading)).toBe(true);
    const child = parent.createChild();
    const pool = child.pool();
    expect(pool.definitions.find((d) => d.name === 'client_0')?.deferLoading).toBe(true);
    expect(pool.definitions.map((d) => d.name)).toContain('tool_search');
    expect(pool.definitions.find((d) => d.name === 'read_file')?.deferLoading).toBeFalsy();
  });
});

describe('provider definitions of MCP tools', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-mcp-origin-')));
    writeFileSync(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  everything:\n    command: ${process.execPath}\n    args: [${JSON.stringify(everything)}, stdio]\ndefaultPersonality: echo\n`,
    );
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(
      path.join(workspace, 'personalities/echo.yaml'),
      'id: echo\nplugins: [mcp-bridge, tools-code]\nmcpServers:\n  everything: { includeTools: [echo] }\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('name the MCP server in a field each provider format accepts', async () => {
    const session = quiver.createSession();
    await session.ready();
    const mcp = session.render('mcp').tools.find((tool) => tool.name === 'mcp__everything__echo');
    expect(mcp?._meta).toEqual({ [MCP_SERVER_META_KEY]: 'everything' });
    const anthropic = session.render('anthropic').tools.find((tool) => tool.name === 'mcp__everything__echo');
    expect(anthropic?.description).toContain('MCP server "everything"');
    const anthropicFields = ['cache_control', 'defer_loading', 'description', 'input_schema', 'name'];
    expect(Object.keys(anthropic ?? {}).every((key) => anthropicFields.includes(key))).toBe(true);
    const openai = session
      .render('openai')
      .tools.find((tool) => tool.function.name === 'mcp__everything__echo');
    expect(openai?.function.description).toContain('MCP server "everything"');
    const gemini = session
      .render('gemini')
      .tools[0]?.functionDeclarations.find((declaration) => declaration.name === 'mcp__everything__echo');
    expect(gemini?.description).toContain('MCP server "everything"');
    const readFile = session.render('anthropic').tools.find((tool) => tool.name === 'read_file');
    expect(readFile?.description).not.toContain('MCP server');
  });
});
