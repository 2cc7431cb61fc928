import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, quiver } from './helpers.js';
import { recordProgress, serveEnv, serveWorkspace, textOf } from './serve-fixtures.js';

interface StartSummary {
  transport: string;
  url: string;
  personality: string;
  tools: number;
  tokens: number;
}

/** Starts `quiver serve --http 127.0.0.1:0 --json` and resolves with its start line. */
function startHttpServer(
  dir: string,
): Promise<{ child: ChildProcessWithoutNullStreams; summary: StartSummary; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [BIN, '--trust-project', 'serve', '--http', '127.0.0.1:0', '--json'],
    {
      cwd: dir,
      env: serveEnv(),
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0)
        resolve({ child, summary: JSON.parse(stdout.slice(0, newline)), stderr: () => stderr });
    });
    child.on('exit', (code) =>
      reject(new Error(`quiver serve exited with ${code} before it started: ${stderr}`)),
    );
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** A raw POST, so the Host and Origin headers can be whatever a hostile page would send. */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'page', version: '1' },
        },
      }),
    );
  });
}

describe('quiver serve --http', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let dir: string;
  let cleanup: () => void;

  beforeAll(async () => {
    ({ dir, cleanup } = serveWorkspace());
    server = await startHttpServer(dir);
    client = new Client({ name: 'serve-http-test', version: '1.0.0' });
    transport = new StreamableHTTPClientTransport(new URL(server.summary.url));
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await exited(server.child);
    }
    cleanup?.();
  });

  it('prints the loopback URL, the tool count and the token estimate as one JSON line', () => {
    expect(server.summary).toMatchObject({ transport: 'http', personality: 'dev' });
    expect(server.summary.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.summary.tools).toBeGreaterThan(3);
    expect(server.summary.tokens).toBeGreaterThan(100);
  });

  it("lists the personality's tools, and reads a workspace file", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_file', 'terminal', 'count_slowly']));
    expect(names).not.toContain('kanban_list');
    expect(tools).toHaveLength(server.summary.tools);
    const result = await client.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
    expect(textOf(result)).toContain('The quick brown fox.');
  });

  it('returns refused and invalid calls as tool errors with their codes', async () => {
    const denied = await client.callTool({ name: 'terminal', arguments: { command: 'touch over-http' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/^\[not_permitted\] .*add "terminal\(touch[^"]*\)" to permissions\.allow/);
    expect(existsSync(path.join(dir, 'over-http'))).toBe(false);
    const invalid = await client.callTool({ name: 'count_slowly', arguments: { steps: 'many' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('[input_invalid]');
  });

  it('streams progress notifications and aborts a call the client cancels', async () => {
    const notices = recordProgress(transport);
    const counted = await client.callTool(
      { name: 'count_slowly', arguments: { steps: 2 } },
      { onprogress: () => {} },
    );
    expect(textOf(counted)).toBe('counted to 2');
    expect(notices.map((notice) => notice.progress)).toEqual([1, 2, 3]);

    const marker = path.join(dir, 'aborted-over-http.txt');
    const controller = new AbortController();
    const waiting = client.callTool(
      { name: 'wait_for_abort', arguments: { marker } },
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(waiting).rejects.toThrow();
    await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 10_000 });
  });

  it('answers a call that sends nothing before its result as one JSON body, and streams one that reports progress', async () => {
    const answers: string[] = [];
    const recording = new StreamableHTTPClientTransport(new URL(server.summary.url), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'POST' && response.status === 200)
          answers.push(response.headers.get('content-type') ?? '');
        return response;
      },
    });
    const recorder = new Client({ name: 'recording', version: '1.0.0' });
    await recorder.connect(recording);
    try {
      answers.length = 0;
      const read = await recorder.callTool({ name: 'read_file', arguments: { path: 'README.md' } });
      expect(textOf(read)).toContain('The quick brown fox.');
      expect(answers).toEqual(['application/json']);

      answers.length = 0;
      const notices = recordProgress(recording);
      const counted = await recorder.callTool(
        { name: 'count_slowly', arguments: { steps: 2 } },
        { onprogress: () => {} },
      );
      expect(textOf(counted)).toBe('counted to 2');
      expect(notices.map((notice) => notice.progress)).toEqual([1, 2, 3]);
      expect(answers).toEqual(['text/event-stream']);
    } finally {
      await recorder.close();
    }
  });

  it('keeps a grant given through elicitation inside the MCP session that gave it', async () => {
    const asking = new Client(
      { name: 'asking', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked = 0;
    asking.setRequestHandler('elicitation/create', () => {
      asked += 1;
      return { action: 'accept', content: { decision: 'session' } };
    });
    await asking.connect(new StreamableHTTPClientTransport(new URL(server.summary.url)));
    try {
      const first = await asking.callTool({ name: 'terminal', arguments: { command: 'touch granted' } });
      expect(first.isError).toBeFalsy();
      expect(existsSync(path.join(dir, 'granted'))).toBe(true);
      const again = await asking.callTool({ name: 'terminal', arguments: { command: 'touch granted' } });
      expect(again.isError).toBeFalsy();
      expect(asked).toBe(1);
      // The headless client from beforeAll has its own Quiver session, without that grant.
      const other = await client.callTool({ name: 'terminal', arguments: { command: 'touch granted' } });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain('[not_permitted]');
    } finally {
      await asking.close();
    }
  });

  it('refuses requests whose Host or Origin header is not local', async () => {
    const { port } = new URL(server.summary.url);
    expect(await rawPost(server.summary.url, { host: `attacker.example:${port}` })).toBe(403);
    expect(await rawPost(server.summary.url, { origin: 'http://attacker.example' })).toBe(403);
    expect(await rawPost(server.summary.url, { origin: `http://localhost:${port}` })).toBe(200);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
    expect(server.stderr()).not.toMatch(/error|failed/i);
  });
});

describe('quiver serve --http on a non-loopback host', () => {
  it('is refused with exit 2 and says how to serve anyway', async () => {
    const { dir, cleanup } = serveWorkspace();
    try {
      const run = await quiver(['serve', '--http', '0.0.0.0:0'], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('Refusing to serve on non-loopback host "0.0.0.0"');
      expect(run.stderr).toContain('--allow-remote');
      expect(run.stdout).toBe('');
    } finally {
      cleanup();
    }
  });
});
