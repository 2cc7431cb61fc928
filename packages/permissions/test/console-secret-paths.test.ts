import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleRuntimeDirectory,
  createReadDenyMatcher,
  PermissionEngine,
  protectedPathList,
} from '../src/index.js';
import { createWorkspaceFixture, TOOL_SPECS, type WorkspaceFixture } from './workspace-fixture.js';

let fixture: WorkspaceFixture;
let runtimeDir: string;
let secretFile: string;
beforeAll(async () => {
  fixture = await createWorkspaceFixture();
  runtimeDir = path.join(fixture.workspace, '..', `runtime-${path.basename(fixture.workspace)}`);
  secretFile = path.join(consoleRuntimeDirectory({ XDG_RUNTIME_DIR: runtimeDir }), '4242.json');
  await fs.mkdir(path.dirname(secretFile), { recursive: true });
  await fs.writeFile(secretFile, '{"token":"secret"}');
});
afterAll(async () => {
  await fs.rm(runtimeDir, { recursive: true, force: true });
  await fixture.cleanup();
});

function engine() {
  return new PermissionEngine({
    workspace: fixture.workspace,
    // Even a person's blanket allows do not reach the console's secret.
    layers: [{ allow: ['read_file', 'grep', 'terminal', `read_file(${runtimeDir}/**)`] }],
    protectedPaths: protectedPathList({
      dataDir: path.join(fixture.workspace, '.data'),
      loaded: [],
      env: { XDG_RUNTIME_DIR: runtimeDir },
    }),
  });
}

describe("the console's runtime directory", () => {
  it('is under $XDG_RUNTIME_DIR, else under the XDG state directory', () => {
    expect(consoleRuntimeDirectory({ XDG_RUNTIME_DIR: '/run/user/7' })).toBe('/run/user/7/quiver/console');
    expect(consoleRuntimeDirectory({ XDG_STATE_HOME: '/s' })).toBe('/s/quiver/console');
  });

  it('is denied to file tools and every shell reader whatever the rules allow', async () => {
    const permissions = engine();
    const read = await permissions.decide({
      toolName: 'read_file',
      args: { path: secretFile },
      spec: TOOL_SPECS.read_file,
    });
    expect(read.behavior).toBe('deny');
    expect(read.reason).toContain('console keeps its address and secret here');
    for (const command of [
      `cat ${secretFile}`,
      `git diff --no-index /dev/null ${secretFile}`,
      `grep -r token ${path.dirname(secretFile)}`,
      `head -c 100 < ${secretFile}`,
    ]) {
      const decision = await permissions.decide({
        toolName: 'terminal',
        args: { command },
        spec: TOOL_SPECS.terminal,
      });
      expect(decision.behavior, command).toBe('deny');
    }
  });

  it('is denied to directory walks by the read-deny matcher', () => {
    const matcher = createReadDenyMatcher({
      workspace: fixture.workspace,
      deny: [],
      readDeniedPaths: [{ path: path.dirname(secretFile), reason: 'protected: the console secret' }],
    });
    expect(matcher(secretFile)).toBe('protected: the console secret');
    expect(matcher(path.join(fixture.workspace, 'src'))).toBeUndefined();
  });
});
