import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ToolPermissionSpec } from '@quiver/types';

/**
 * A real workspace on disk: `src/` with files, `docs/guide.md`, `secrets/key`, and symlinks `src/link` (relative)
 * and `src/abslink` (absolute) that both point at `secrets/`. A sibling `outside/src/a.ts` lies
 * outside the workspace.
 */
export interface WorkspaceFixture {
  root: string;
  workspace: string;
  cleanup(): Promise<void>;
}

export async function createWorkspaceFixture(): Promise<WorkspaceFixture> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'quiver-permissions-'));
  const workspace = path.join(root, 'workspace');
  await fs.mkdir(path.join(workspace, 'src'), { recursive: true });
  await fs.mkdir(path.join(workspace, 'secrets'), { recursive: true });
  await fs.mkdir(path.join(workspace, 'docs'), { recursive: true });
  await fs.writeFile(path.join(workspace, 'docs', 'guide.md'), '# Guide\n');
  await fs.mkdir(path.join(root, 'outside', 'src'), { recursive: true });
  await fs.writeFile(path.join(workspace, 'src', 'a.ts'), 'export const a = 1;\n');
  await fs.writeFile(path.join(workspace, 'src', 'b.ts'), 'export const b = 2;\n');
  await fs.writeFile(path.join(workspace, 'secrets', 'key'), 'hunter2\n');
  await fs.writeFile(path.join(root, 'outside', 'src', 'a.ts'), 'outside\n');
  await fs.symlink('../secrets', path.join(workspace, 'src', 'link'));
  await fs.symlink(path.join(workspace, 'secrets'), path.join(workspace, 'src', 'abslink'));
  return { root, workspace, cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}

type Args = Record<string, string>;

/** Permission specs shaped like the first-party tools'. */
export const TOOL_SPECS: Record<string, ToolPermissionSpec<Args>> = {
  terminal: { kind: 'shell', command: (args) => args.command as string, cwd: (args) => args.cwd },
  read_file: { kind: 'read', paths: (args) => [args.path as string] },
  grep: { kind: 'read', paths: (args) => [args.path as string] },
  write_file: { kind: 'write', paths: (args) => [args.path as string] },
  edit_file: { kind: 'write', paths: (args) => [args.path as string] },
  web_fetch: { kind: 'url', url: (args) => args.url as string },
};

export function withWorkspace(args: Args, workspace: string): Args {
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key, value.replaceAll('@WORKSPACE@', workspace)]),
  );
}
