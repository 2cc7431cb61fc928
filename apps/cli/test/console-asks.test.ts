import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { writeHostileWorkspace } from '@quiver/test-utils/hostile-mcp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { BIN, quiver, tempDirs, write } from './helpers.js';
import { connectStdio, serveEnv, serveWorkspace, textOf } from './serve-fixtures.js';

const dirs = tempDirs('quiver-console-asks-');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  dirs.cleanup();
});

interface ConsoleCallRecord {
  toolName: string;
  arguments: string;
  status: string;
}

interface ConsolePage {
  /** The messages the console sent so far. */
  messages: Array<{
    type: string;
    ask?: { id: string; headline: string };
    outcome?: string;
    call?: ConsoleCallRecord;
    calls?: ConsoleCallRecord[];
  }>;
  answer(id: string, body: unknown): Promise<number>;
  api(pathname: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): void;
}

/** A page as the browser's script is one: the event stream read with the secret, answers posted with it. */
async function openPage(cwd: string, env: Record<string, string>): Promise<ConsolePage> {
  const listed = await quiver(['console', '--json'], { cwd, env });
  const [entry] = JSON.parse(listed.stdout) as Array<{ url: string }>;
  const url = new URL(entry?.url as string);
  const token = url.hash.replace('#token=', '');
  const stop = new AbortController();
  const response = await fetch(new URL('/api/events', url), {
    headers: { authorization: `Bearer ${token}` },
    signal: stop.signal,
  });
  expect(response.status).toBe(200);
  const messages: ConsolePage['messages'] = [];
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += Buffer.from(chunk).toString('utf8');
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data !== undefined && /^event: message$/m.test(block)) messages.push(JSON.parse(data));
          if (data !== undefined && /^event: snapshot$/m.test(block))
            messages.push({ type: 'snapshot', ...JSON.parse(data) });
        }
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    messages,
    answer: async (id, body) =>
      (
        await fetch(new URL(`/api/asks/${id}`, url), {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status,
    api: async (pathname, body) => {
      const sent = await fetch(new URL(pathname, url), {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: sent.status, body: await sent.json() };
    },
    close: () => stop.abort(),
  };
}

async function until<T>(find: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} never came`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function serve(
  args: string[] = [],
): Promise<{ client: Client; dir: string; env: Record<string, string> }> {
  const workspace = serveWorkspace();
  cleanups.push(workspace.cleanup);
  const env = { XDG_RUNTIME_DIR: dirs.make(), XDG_DATA_HOME: dirs.make() };
  const { client } = await connectStdio(workspace.dir, { env, args });
  cleanups.push(() => client.close());
  return { client, dir: workspace.dir, env };
}

describe('asks the client cannot show', () => {
  it('are denied at once when no console page is open, naming the rule and the console', async () => {
    const { client } = await serve();
    const result = await client.callTool({ name: 'terminal', arguments: { command: 'touch made-here' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/add "terminal\(touch[^"]*\)" to permissions\.allow/);
    expect(textOf(result)).toContain('quiver console');
  });

  it('wait for an open page at most --console-ask-timeout, then are denied saying so', async () => {
    const { client, dir, env } = await serve(['--console-ask-timeout', '1']);
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    const result = await client.callTool({ name: 'terminal', arguments: { command: 'touch made-here' } });
    expect(page.messages.some((message) => message.type === 'ask')).toBe(true);
    expect(textOf(result)).toContain('nobody answered in the quiver console within 1 s');
    expect(page.messages.find((message) => message.type === 'ask_done')?.outcome).toBe('timed out');
  });

  it('refuse an answer that is not one of the choices, and say which are', async () => {
    const { client, dir, env } = await serve();
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    const pending = client.callTool({ name: 'terminal', arguments: { command: 'touch made-here' } });
    const ask = await until(() => page.messages.find((message) => message.type === 'ask')?.ask, 'the ask');
    expect(ask.headline).toBe('Allow terminal: touch made-here?');
    expect(await page.answer(ask.id, { decision: 'always' })).toBe(409);
    expect(await page.answer(ask.id, { decision: 'once' })).toBe(200);
    expect(await page.answer(ask.id, { decision: 'once' })).toBe(409);
    expect((await pending).isError).toBeFalsy();
  });

  it('reach the page from quiver rpc when the client has no permissions capability', async () => {
    const dir = dirs.make();
    write(path.join(dir, 'quiver.yaml'), 'defaultPersonality: agent\n');
    write(
      path.join(dir, 'personalities/agent.yaml'),
      'id: agent\nplugins: [tools-code]\npermissions:\n  allow: [read_file]\n',
    );
    write(path.join(dir, 'notes.txt'), 'remember the milk\n');
    const env = { XDG_RUNTIME_DIR: dirs.make(), XDG_DATA_HOME: dirs.make() };
    const child = spawn(process.execPath, [BIN, '--trust-project', 'rpc'], {
      cwd: dir,
      env: { ...serveEnv(), ...env },
    });
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    connection.listen();
    cleanups.push(() => {
      connection.dispose();
      child.kill('SIGKILL');
    });
    await connection.sendRequest('initialize', {
      protocolVersion: '1',
      client: { name: 'rpc-test' },
      capabilities: {},
    });
    const { sessionId } = await connection.sendRequest<{ sessionId: string }>('session.create', {});
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    const pending = connection.sendRequest<{ results: Array<{ ok: boolean; error?: string }> }>(
      'session.execute',
      {
        sessionId,
        calls: [{ id: 'w1', name: 'write_file', args: { path: 'todo.txt', content: 'buy bread\n' } }],
      },
    );
    const ask = await until(() => page.messages.find((message) => message.type === 'ask')?.ask, 'the ask');
    expect(ask.headline).toBe('Allow write_file: todo.txt?');
    expect(await page.answer(ask.id, { decision: 'deny', message: 'not now' })).toBe(200);
    const { results } = await pending;
    expect(results[0]?.ok).toBe(false);
    expect(results[0]?.error).toContain('not now');
    expect(() => readFileSync(path.join(dir, 'todo.txt'))).toThrow();
  });

  it('approves a changed MCP tool definition only as the page showed it', async () => {
    const dir = dirs.make();
    const state = dirs.make();
    writeHostileWorkspace(dir, state);
    const env = { XDG_RUNTIME_DIR: dirs.make(), XDG_DATA_HOME: dirs.make() };
    const { client } = await connectStdio(dir, { env });
    cleanups.push(() => client.close());
    const fetchNotes = 'mcp__hostile__fetch_notes';
    const tools = async () => (await client.listTools(undefined, { cacheMode: 'refresh' })).tools;
    await until(
      async () => ((await tools()).some((tool) => tool.name === fetchNotes) ? true : undefined),
      'fetch_notes',
    );
    expect(textOf(await client.callTool({ name: 'mcp__hostile__swap', arguments: {} }))).toBe('swapped');
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    type Review = { server: string; tool: string; hash: string; diff: string[] };
    const review = await until(async () => {
      const { body } = await page.api('/api/reviews');
      return (body.reviews as Review[])[0];
    }, 'the review');
    expect(review).toMatchObject({ server: 'hostile', tool: 'fetch_notes' });
    expect(review.diff).toContain('-   "description": "Returns the notes of a topic.",');
    expect(review.diff.join('\n')).toContain('\\u200b');
    const stale = await page.api('/api/reviews', { ...review, hash: 'not-what-was-shown' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain('changed again since the page showed it');
    expect((await page.api('/api/reviews', review)).status).toBe(200);
    const approved = await until(
      async () =>
        (await tools()).find((tool) => tool.name === fetchNotes && tool.description?.includes('id_rsa')),
      'the approved definition',
    );
    expect(approved.description).toContain('id_rsa');
    expect((await page.api('/api/reviews')).body.reviews).toEqual([]);
  }, 60_000);

  it('trades a one-time code (what --open puts in a command line) for the secret once only', async () => {
    const { dir, env } = await serve();
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    const { body } = await page.api('/api/codes', {});
    const listed = JSON.parse((await quiver(['console', '--json'], { cwd: dir, env })).stdout) as Array<{
      url: string;
    }>;
    const exchange = () =>
      fetch(new URL('/api/exchange', listed[0]?.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: body.code }),
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    expect(listed[0]?.url).toContain(`#token=${((await first.json()) as { token: string }).token}`);
    expect((await exchange()).status).toBe(401);
  });

  it('forgets the record of a server that is gone', async () => {
    const runtime = dirs.make();
    const record = path.join(runtime, 'quiver', 'console', '999999.json');
    write(
      record,
      JSON.stringify({
        pid: 999_999,
        kind: 'serve (stdio)',
        url: 'http://127.0.0.1:9/',
        token: 'x',
        workspace: '/',
        startedAt: 0,
      }),
    );
    const run = await quiver(['console'], { cwd: dirs.make(), env: { XDG_RUNTIME_DIR: runtime } });
    expect(run.stderr).toContain('No running `quiver serve` or `quiver rpc` has a console for you');
    expect(run.code).toBe(1);
    expect(() => readFileSync(record)).toThrow();
  });

  it('with no console running, exits 1 (not the usage code) and says how to start one', async () => {
    const runtime = dirs.make();
    const run = await quiver(['console'], { cwd: dirs.make(), env: { XDG_RUNTIME_DIR: runtime } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error [no_console]');
    expect(run.stderr).toContain('`quiver serve`');
    expect(run.stderr).toContain('`quiver rpc`');
    const json = await quiver(['console', '--json'], { cwd: dirs.make(), env: { XDG_RUNTIME_DIR: runtime } });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr.trim()).error.code).toBe('no_console');
  });
});

describe('the calls the console shows', () => {
  it('shows every call with its arguments, made before a page opened (in its snapshot) and after (as it runs)', async () => {
    const { client, dir, env } = await serve();
    // Text from the model is data: an escape sequence in an argument is shown, never run.
    await client.callTool({ name: 'read_file', arguments: { path: 'earlier\u001b[2J.md' } });
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    const snapshot = await until(
      () => page.messages.find((message) => message.type === 'snapshot'),
      'the snapshot',
    );
    const earlier = snapshot.calls?.find((call) => call.toolName === 'read_file');
    expect(earlier?.arguments).toContain('earlier');
    expect(earlier?.arguments).not.toContain('\u001b');
    expect(earlier?.status).toBe('error');
    await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    const later = await until(
      () =>
        page.messages.find(
          (message) => message.type === 'call' && message.call?.arguments.includes('README.md'),
        )?.call,
      'the second call',
    );
    expect(later).toMatchObject({ toolName: 'read_file' });
    await until(
      () =>
        page.messages.find(
          (message) =>
            message.type === 'call' &&
            message.call?.arguments.includes('README.md') &&
            message.call.status === 'ok',
        ),
      'the second call completed',
    );
  });
});

describe('the trust page', () => {
  it('shows what quiver trust shows, trusts only that (by its hash), and refuses when the configuration changed in between', async () => {
    const { dir, env } = await serve();
    const page = await openPage(dir, env);
    cleanups.push(page.close);
    const configFile = path.join(dir, 'quiver.yaml');
    const shown = (await page.api('/api/trust')).body.trust;
    expect(shown.state).not.toBe('trusted');
    expect(shown.cannotTrust).toBeUndefined();
    expect(shown.files).toContainEqual({
      path: configFile,
      sha256: createHash('sha256').update(readFileSync(configFile)).digest('hex'),
    });
    expect(shown.code).toContainEqual(
      expect.objectContaining({
        kind: 'plugin',
        name: './workbench',
        location: expect.stringContaining('workbench'),
      }),
    );
    const before = JSON.parse((await quiver(['trust', '--json'], { cwd: dir, env })).stdout);
    expect(shown.description.length).toBeGreaterThan(0);
    expect(before.state).toBe(shown.state);

    // The configuration changes between showing and answering: nothing is trusted.
    const personality = path.join(dir, 'personalities/dev.yaml');
    write(personality, readFileSync(personality, 'utf8').replace('log_steps]', 'log_steps, terminal]'));
    const refused = await page.api('/api/trust', { hash: shown.hash });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error).toContain('changed since the page showed it');
    expect(JSON.parse((await quiver(['trust', '--json'], { cwd: dir, env })).stdout).state).not.toBe(
      'trusted',
    );
    expect((await page.api('/api/trust', {})).status).toBe(409);

    // The page shows the new configuration; trusting it records exactly that.
    const again = (await page.api('/api/trust')).body.trust;
    expect(again.hash).not.toBe(shown.hash);
    expect(JSON.stringify(again.description)).toContain('terminal');
    expect((await page.api('/api/trust', { hash: again.hash })).status).toBe(200);
    const after = JSON.parse((await quiver(['trust', '--json'], { cwd: dir, env })).stdout);
    expect(after.state).toBe('trusted');
    expect((await page.api('/api/trust')).body.trust.state).toBe('trusted');
  }, 60_000);
});
