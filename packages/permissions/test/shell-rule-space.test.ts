import type { ToolPermissionSpec } from '@quiver/types';
import { describe, expect, it } from 'vitest';
import { InMemoryFilePins, PermissionEngine, programConfigurationFiles } from '../src/index.js';

const workspace = process.cwd();
const pins = new InMemoryFilePins();
pins.pin(programConfigurationFiles(workspace));
type Args = Record<string, string>;
const SHELL_TOOLS: Record<string, ToolPermissionSpec<Args>> = {
  terminal: { kind: 'shell', command: (args) => args.command as string },
  terminal_start: { kind: 'shell', command: (args) => args.command as string },
  terminal_write: { kind: 'shell', command: (args) => args.text as string },
};
const call = (toolName: string, text: string) => ({
  toolName,
  args: { command: text, text, id: 'shell-1' },
  spec: SHELL_TOOLS[toolName],
});

describe('one rule space for the shell tools', () => {
  it('denies every shell tool when terminal is denied', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal_start'], deny: ['terminal'] }],
    });
    for (const tool of Object.keys(SHELL_TOOLS)) {
      expect(await engine.decide(call(tool, 'ls')), tool).toMatchObject({
        behavior: 'deny',
        rule: 'terminal',
      });
    }
  });

  it('applies a terminal(...) deny to the command of terminal_start and to a line written with terminal_write', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal_start', 'terminal_write'], deny: ['terminal(rm:*)'] }],
      filePins: pins,
    });
    expect(await engine.decide(call('terminal_start', 'rm -rf build'))).toMatchObject({ behavior: 'deny' });
    expect(await engine.decide(call('terminal_write', 'rm -rf ~\n'))).toMatchObject({ behavior: 'deny' });
    expect((await engine.decide(call('terminal_start', 'npm run dev'))).behavior).toBe('allow');
  });

  it('lets terminal(...) allow rules allow the same commands in terminal_start', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal(npm run dev)'] }],
      filePins: pins,
    });
    expect((await engine.decide(call('terminal_start', 'npm run dev'))).behavior).toBe('allow');
    expect((await engine.decide(call('terminal_start', 'npm run build'))).behavior).toBe('ask');
  });

  it('applies a deny written for terminal_start to terminal too, but not an allow', async () => {
    const engine = new PermissionEngine({
      workspace,
      layers: [{ allow: ['terminal_start(make:*)'], deny: ['terminal_start(curl:*)'] }],
      toolKinds: { terminal_start: 'shell' },
    });
    expect((await engine.decide(call('terminal', 'curl example.com'))).behavior).toBe('deny');
    expect((await engine.decide(call('terminal', 'make build'))).behavior).toBe('ask');
  });
});
