import { describe, expect, it } from 'vitest';
import { collectCandidates } from '../src/assembly/candidates.js';
import { applyDenyRules } from '../src/assembly/deny-rules.js';
import { builtInTool, makePolicy, names, newRegistry } from './assembly-helpers.js';

describe('a blanket terminal deny at assembly', () => {
  it('removes every tool whose permission kind is shell, and only those', () => {
    const registry = newRegistry();
    const shell = (field: 'command' | 'text') => ({
      permission: {
        kind: 'shell' as const,
        command: (args: unknown) => (args as Record<string, string>)[field] as string,
      },
    });
    registry.register(builtInTool('terminal', shell('command')), { pluginId: 'tools-terminal' });
    registry.register(builtInTool('terminal_start', shell('command')), { pluginId: 'tools-terminal' });
    registry.register(builtInTool('terminal_write', shell('text')), { pluginId: 'tools-terminal' });
    registry.register(
      builtInTool('terminal_list', { permission: { kind: 'custom', specifier: () => undefined } }),
      { pluginId: 'tools-terminal' },
    );
    const candidates = collectCandidates(registry.list(), makePolicy({ plugins: ['tools-terminal'] })).kept;
    const result = applyDenyRules(candidates, ['terminal']);
    expect(Object.fromEntries(result.removed.map((entry) => [entry.name, entry.reason.rule]))).toEqual({
      terminal: 'terminal',
      terminal_start: 'terminal',
      terminal_write: 'terminal',
    });
    expect(names(result.kept)).toEqual(['terminal_list']);
  });
});
