import { readFile, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import type { ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalTool } from '../src/index.js';
import { decideSandbox, sandboxNotice } from '../src/sandbox.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

const itWithBubblewrap = itWithSystemTools(['bwrap']);
const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);

describe('sandbox', () => {
  itWithBubblewrap(
    'runs sandboxed when required, writing inside the workspace and its temp dir only',
    async () => {
      const { ctx } = await createContext(workspace, { sandbox: 'required' });
      const outsideFile = path.join(workspace.outside, 'escaped.txt');
      const result = await Promise.resolve(
        terminalTool.execute(
          {
            command: `echo inside > inside.txt && echo temp > "$TMPDIR/t.txt" && cat "$TMPDIR/t.txt"; echo outside > ${outsideFile}`,
          },
          ctx,
        ),
      );
      expect(result.structured).toMatchObject({ sandboxed: true });
      expect(textOf(result)).toContain('sandboxed');
      expect(textOf(result)).toContain('temp');
      // /tmp, where the outside directory lives, is an empty tmpfs in the sandbox.
      expect(textOf(result)).toMatch(/Read-only file system|No such file or directory/);
      expect(await readFile(path.join(workspace.root, 'inside.txt'), 'utf8')).toBe('inside\n');
      await expect(stat(outsideFile)).rejects.toThrow();
    },
  );

  itWithBubblewrap(
    'gives each sandboxed call an empty /tmp, as the tool description tells the model',
    async () => {
      expect(terminalTool.description).toContain('/tmp and $TMPDIR are empty for each call');
      const { ctx } = await createContext(workspace, { sandbox: 'required' });
      const run = (command: string) => Promise.resolve(terminalTool.execute({ command }, ctx));
      expect(textOf(await run('touch /tmp/kept && ls /tmp'))).toContain('kept');
      expect(textOf(await run('ls -A /tmp; echo done'))).not.toContain('kept');
    },
  );

  itWithBubblewrap('cannot reach the network from the sandbox', async () => {
    const connections: net.Socket[] = [];
    const server = net.createServer((socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const probe = `echo hi > /dev/tcp/127.0.0.1/${port} && echo connected`;
      const open = await createContext(workspace, { sandbox: 'off' });
      expect(textOf(await Promise.resolve(terminalTool.execute({ command: probe }, open.ctx)))).toContain(
        'connected',
      );
      const sandboxed = await createContext(workspace, { sandbox: 'required' });
      const result = await Promise.resolve(terminalTool.execute({ command: probe }, sandboxed.ctx));
      expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
      expect(textOf(result)).not.toContain('connected');
      expect(connections).toHaveLength(1);
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  itWithBubblewrap('uses bubblewrap in auto mode when it works', async () => {
    const { ctx } = await createContext(workspace, { sandbox: 'auto' });
    const result = await Promise.resolve(terminalTool.execute({ command: 'true' }, ctx));
    expect(result.structured).toMatchObject({ sandboxed: true });
  });

  it('explains how to install bubblewrap when the sandbox is required but bwrap is missing', async () => {
    const decision = await decideSandbox('required', '/nonexistent/bin/bwrap');
    expect(decision).toEqual({
      sandboxed: false,
      error:
        'sandbox: required, but bubblewrap (bwrap) is not installed — apt-get install bubblewrap, or set sandbox: auto',
    });
    expect(await decideSandbox('auto', '/nonexistent/bin/bwrap')).toEqual({ sandboxed: false });
  });
});

describe('the unsandboxed notice', () => {
  it('tells a person once that auto runs commands unsandboxed when bubblewrap is missing, and how to choose', async () => {
    const notice = await sandboxNotice('auto', '/nonexistent/bin/bwrap');
    expect(notice).toBe(
      'terminal commands run unsandboxed: sandbox is auto, but bubblewrap (bwrap) is not installed — apt-get install bubblewrap, set sandbox: required to refuse instead, or sandbox: off to run unsandboxed without this notice',
    );
    expect(await sandboxNotice('off', '/nonexistent/bin/bwrap')).toBeUndefined();
    expect(await sandboxNotice('required', '/nonexistent/bin/bwrap')).toBeUndefined();
  });

  itWithBubblewrap('says nothing when auto can sandbox', async () => {
    expect(await sandboxNotice('auto')).toBeUndefined();
  });
});
