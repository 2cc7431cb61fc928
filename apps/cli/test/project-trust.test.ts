import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { itWithSystemTools } from '@quiver/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, type CliRun, quiver, tempDirs, write } from './helpers.js';
import { connectStdio } from './serve-fixtures.js';

const dirs = tempDirs('quiver-trust-');
afterEach(dirs.cleanup);

/**
 * A cloned repository whose quiver.yaml adds a server that leaves a marker when started;
 * personality `dev` (the default) enables it only when asked, personality `on` always does.
 */
function clone(options: { devEnables: boolean }) {
  const workspace = dirs.make();
  const marker = path.join(dirs.make(), 'started');
  const env = { XDG_DATA_HOME: dirs.make() };
  const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
  write(
    path.join(workspace, 'quiver.yaml'),
    `mcpServers:\n  marker:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["-e", ${JSON.stringify(script)}]\n    connectTimeoutMs: 2000\ndefaultPersonality: dev\n`,
  );
  const enable = 'mcpServers:\n  marker: true\n';
  write(
    path.join(workspace, 'personalities/dev.yaml'),
    `plugins: [mcp-bridge, tools-code]\n${options.devEnables ? enable : ''}permissions:\n  allow: [read_file, mcp__marker]\n`,
  );
  write(path.join(workspace, 'personalities/on.yaml'), `plugins: [mcp-bridge]\n${enable}`);
  write(path.join(workspace, 'README.md'), 'hello\n');
  return { workspace, marker, env };
}

/** tools, permit, call and serve in the workspace; resolves with each command's stderr. */
async function everyCommand(workspace: string, env: NodeJS.ProcessEnv, global: string[]): Promise<string[]> {
  const runs: CliRun[] = [
    await quiver([...global, 'tools'], { cwd: workspace, env }),
    await quiver([...global, 'permit', 'read_file', '--args', '{"path":"README.md"}'], {
      cwd: workspace,
      env,
    }),
    await quiver([...global, 'call', 'read_file', '--args', '{"path":"README.md"}'], { cwd: workspace, env }),
  ];
  const served = await connectStdio(workspace, { trustProject: global.includes('--trust-project'), env });
  await served.client.listTools();
  await served.client.close();
  return [...runs.map((run) => run.stderr), served.stderr()];
}

/**
 * Runs `quiver trust` on a pseudo-terminal (util-linux `script`) and answers the question with
 * `answer`; resolves with the letters it printed (the prompt's drawing splits words apart).
 */
function trustOnTerminal(workspace: string, env: NodeJS.ProcessEnv, answer: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${process.execPath} ${BIN} trust`, '/dev/null'], {
      cwd: workspace,
      env: { ...process.env, ...env },
    });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && letters(output).includes('Trustthisconfiguration')) {
        answered = true;
        child.stdin.write(answer);
        setTimeout(() => child.stdin.write('\r'), 200);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(letters(output));
    });
  });
}

function letters(text: string): string {
  return text
    .replace(/\r\n/g, '')
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/[^A-Za-z]/g, '');
}

describe('trusting a project configuration', () => {
  it('starts no server of a fresh clone in tools, permit, call or serve, and each says how to trust it', async () => {
    const { workspace, marker, env } = clone({ devEnables: true });
    const stderrs = await everyCommand(workspace, env, []);
    expect(existsSync(marker)).toBe(false);
    for (const stderr of stderrs) {
      expect(stderr).toContain('is not trusted');
      expect(stderr).toContain('mcpServers.marker: adds the MCP server');
      expect(stderr).toContain('`quiver trust`');
    }
    const trusted = await quiver(['--trust-project', 'tools'], { cwd: workspace, env });
    // The marker "server" exits once started: tools says so and fails (it is not an MCP server).
    expect(trusted.code).toBe(1);
    expect(trusted.stderr).toContain('MCP server "marker" failed');
    expect(trusted.stderr).not.toContain('is not trusted');
    expect(existsSync(marker)).toBe(true);
  });

  it('never starts a server that the selected personality does not enable', async () => {
    const { workspace, marker, env } = clone({ devEnables: false });
    await everyCommand(workspace, env, ['--trust-project']);
    expect(existsSync(marker)).toBe(false);
    await quiver(['--trust-project', 'tools', '-p', 'on'], { cwd: workspace, env });
    expect(existsSync(marker)).toBe(true);
  });

  it('refuses to trust without a terminal, says what to do instead, and records nothing', async () => {
    const { workspace, env } = clone({ devEnables: true });
    const run = await quiver(['trust'], { cwd: workspace, env });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`marker: ${process.execPath} -e`);
    expect(run.stdout).toContain('allow: read_file, mcp__marker');
    expect(run.stderr).toContain('[trust_needs_terminal]');
    expect(run.stderr).toContain('--trust-project');
    expect(readdirSync(env.XDG_DATA_HOME)).toEqual([]);
  });

  itWithSystemTools(['script'])(
    'records trust confirmed at a terminal, outside the workspace, and starts the server after it',
    async () => {
      const { workspace, marker, env } = clone({ devEnables: true });
      const declined = await trustOnTerminal(workspace, env, 'n');
      expect(declined).toContain('Nothingwastrusted');
      await quiver(['tools'], { cwd: workspace, env });
      expect(existsSync(marker)).toBe(false);

      const accepted = await trustOnTerminal(workspace, env, 'y');
      expect(accepted).toContain(letters(`trusted ${workspace}`));
      expect(readdirSync(path.join(env.XDG_DATA_HOME, 'quiver', 'trust'))).toHaveLength(1);
      expect(existsSync(path.join(workspace, '.quiver', 'trust'))).toBe(false);
      const run = await quiver(['tools'], { cwd: workspace, env });
      expect(run.stderr).not.toContain('is not trusted');
      expect(existsSync(marker)).toBe(true);
    },
  );
});
