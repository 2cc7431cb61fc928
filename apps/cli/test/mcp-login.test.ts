import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  type OAuthProtectedServer,
  startOAuthProtectedServer,
} from '@quiver/test-utils/oauth-protected-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type CliRun, quiver, tempDirs, write } from './helpers.js';

/** `quiver mcp login`, with a fetch playing the browser that opens the printed URL. */
function login(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--trust-project', 'mcp', 'login', ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr += `${line}\n`;
      if (line.startsWith('http://')) void fetch(line).then((response) => response.text());
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('quiver mcp login', () => {
  const dirs = tempDirs('quiver-login-');
  let server: OAuthProtectedServer;
  let workspace: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    server = await startOAuthProtectedServer();
    workspace = dirs.make();
    env = { XDG_DATA_HOME: dirs.make() };
    write(
      path.join(workspace, 'quiver.yaml'),
      `mcpServers:\n  remote:\n    url: ${server.url}\ndefaultPersonality: remote\n`,
    );
    write(
      path.join(workspace, 'personalities/remote.yaml'),
      'id: remote\nplugins: [mcp-bridge]\nmcpServers:\n  remote: {}\npermissions:\n  allow: [mcp__remote]\n',
    );
  });

  afterEach(async () => {
    await server.close();
    dirs.cleanup();
  });

  const call = () =>
    quiver(['--trust-project', 'call', 'mcp__remote__whoami'], { cwd: workspace, env, timeoutMs: 60_000 });

  it('tells the user which command signs in when the server answers 401', async () => {
    const run = await call();
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain('quiver mcp login remote');
  }, 60_000);

  it('signs in through the browser redirect, keeps the tokens 0600, and later calls carry them', async () => {
    const run = await login(['remote'], workspace, env);
    expect(run.stderr).toContain('Open this URL in a browser on this machine to sign in to "remote"');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Signed in to MCP server "remote" (1 tools).');

    const tokenDirectory = path.join(env.XDG_DATA_HOME as string, 'quiver', 'oauth');
    const [tokenFile] = readdirSync(tokenDirectory);
    expect(statSync(path.join(tokenDirectory, tokenFile as string)).mode & 0o777).toBe(0o600);

    const called = await call();
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('signed in as fixture-user');
    expect(server.grants).toEqual(['authorization_code']);
    const again = await login(['remote', '--json'], workspace, env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      server: 'remote',
      outcome: 'already-signed-in',
      tools: 1,
    });
  }, 90_000);

  it('names the configured servers when asked to sign in to one that does not exist', async () => {
    const run = await login(['nowhere'], workspace, env);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('No MCP server named "nowhere" is configured.');
    expect(run.stderr).toContain('Use one of: remote.');
  }, 60_000);
});
