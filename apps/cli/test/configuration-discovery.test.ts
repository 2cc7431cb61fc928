import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { quiver, tempDirs, write } from './helpers.js';

const dirs = tempDirs('quiver-discovery-');
afterEach(dirs.cleanup);

/** quiver.yaml whose server leaves `marker` when started, enabled by the default personality. */
function writeConfig(directory: string, marker: string): void {
  const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`;
  write(
    path.join(directory, 'quiver.yaml'),
    `mcpServers:\n  marker:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["-e", ${JSON.stringify(script)}]\n    connectTimeoutMs: 2000\n`,
  );
  write(
    path.join(directory, 'personalities/default.yaml'),
    'plugins: [mcp-bridge]\nmcpServers:\n  marker: true\n',
  );
}

/**
 * The exit code of `tools` once the marker "server" started: it exits without answering MCP, so
 * tools names it as failed and exits 1 (0 would mean it never started).
 */
const STARTED_MARKER_EXIT = 1;

/** A git repository with a config in `sub/` that a model's write_file could have created. */
function repositoryWithSubdirectoryConfig() {
  const root = dirs.make();
  execFileSync('git', ['init', '-q', root]);
  const sub = path.join(root, 'sub');
  const marker = path.join(dirs.make(), 'started');
  writeConfig(sub, marker);
  return { root, sub, marker, env: { XDG_DATA_HOME: dirs.make() } };
}

describe('where --trust-project finds the configuration it trusts', () => {
  it('refuses to trust a config found in a subdirectory of the repository, and starts nothing of it', async () => {
    const { root, sub, marker, env } = repositoryWithSubdirectoryConfig();
    const run = await quiver(['--trust-project', 'tools'], { cwd: sub, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`trusts only the configuration at the workspace root (${root})`);
    expect(run.stderr).toContain(path.join(sub, 'quiver.yaml'));
    expect(run.stderr).toContain('-w');
    expect(existsSync(marker)).toBe(false);
  });

  it('finds a subdirectory config without --trust-project but applies none of what it adds', async () => {
    const { sub, marker, env } = repositoryWithSubdirectoryConfig();
    const run = await quiver(['tools'], { cwd: sub, env });
    expect(run.stderr).toContain('is not trusted');
    expect(existsSync(marker)).toBe(false);
  });

  it('is not fooled by a .git planted beside the subdirectory config', async () => {
    const { sub, marker, env } = repositoryWithSubdirectoryConfig();
    mkdirSync(path.join(sub, '.git'));
    const run = await quiver(['--trust-project', 'tools'], { cwd: sub, env });
    expect(run.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('outside git, refuses a config below the outermost one, which a program the model ran could have written', async () => {
    const root = dirs.make();
    writeConfig(root, path.join(dirs.make(), 'root-started'));
    const sub = path.join(root, 'sub');
    const marker = path.join(dirs.make(), 'started');
    writeConfig(sub, marker);
    const run = await quiver(['--trust-project', 'tools'], { cwd: sub, env: { XDG_DATA_HOME: dirs.make() } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`trusts only the configuration at the workspace root (${root})`);
    expect(existsSync(marker)).toBe(false);
  });

  it('trusts the root config when started in a subdirectory', async () => {
    const root = dirs.make();
    execFileSync('git', ['init', '-q', root]);
    const marker = path.join(dirs.make(), 'started');
    writeConfig(root, marker);
    mkdirSync(path.join(root, 'src'));
    const run = await quiver(['--trust-project', 'tools'], {
      cwd: path.join(root, 'src'),
      env: { XDG_DATA_HOME: dirs.make() },
    });
    expect(run.code).toBe(STARTED_MARKER_EXIT);
    expect(existsSync(marker)).toBe(true);
  });

  it('trusts a config above the workspace a person named with -w: no tool of that workspace wrote it', async () => {
    const parent = dirs.make();
    const marker = path.join(dirs.make(), 'started');
    writeConfig(parent, marker);
    const workspace = path.join(parent, 'project');
    mkdirSync(workspace);
    const run = await quiver(['--trust-project', '-w', workspace, 'tools'], {
      cwd: workspace,
      env: { XDG_DATA_HOME: dirs.make() },
    });
    expect(run.code).toBe(STARTED_MARKER_EXIT);
    expect(existsSync(marker)).toBe(true);
  });

  it('trusts a subdirectory config a person named with -w or --config', async () => {
    const named = repositoryWithSubdirectoryConfig();
    const workspace = await quiver(['--trust-project', '-w', named.sub, 'tools'], {
      cwd: named.sub,
      env: named.env,
    });
    expect(workspace.code).toBe(STARTED_MARKER_EXIT);
    expect(existsSync(named.marker)).toBe(true);

    const file = repositoryWithSubdirectoryConfig();
    const config = await quiver(
      ['--trust-project', '--config', path.join(file.sub, 'quiver.yaml'), 'tools'],
      {
        cwd: file.root,
        env: file.env,
      },
    );
    expect(config.code).toBe(STARTED_MARKER_EXIT);
    expect(existsSync(file.marker)).toBe(true);
  });
});
