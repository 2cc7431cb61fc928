import type { PreToolUseHook, ToolHook } from '@quiver/types';
import { afterEach, describe, expect, it } from 'vitest';
import { DefaultHookRegistry } from '../src/lifecycle/hook-registry.js';
import { createHarness, type Harness, removeTempDirs } from './fixtures/lifecycle-harness.js';
import { echoTool, failingTool } from './fixtures/test-tools.js';

const harnesses: Harness[] = [];
async function harness(...args: Parameters<typeof createHarness>): Promise<Harness> {
  const created = await createHarness(...args);
  harnesses.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((created) => created.dispose()));
  await removeTempDirs();
});

function pre(name: string, run: PreToolUseHook['run'], extra: Partial<PreToolUseHook> = {}): PreToolUseHook {
  return { event: 'preToolUse', name, run, ...extra };
}

describe('DefaultHookRegistry', () => {
  it('lists hooks for a tool by exact name and * glob, in registration order', () => {
    const hooks = new DefaultHookRegistry();
    const all = pre('all', () => undefined);
    const mcp = pre('mcp', () => undefined, { matcher: 'mcp__github__*' });
    const exact = pre('exact', () => undefined, { matcher: ['echo', 'terminal'] });
    hooks.register(all);
    hooks.register(mcp);
    hooks.register(exact);
    expect(hooks.list('preToolUse', 'echo').map((hook) => hook.name)).toEqual(['all', 'exact']);
    expect(hooks.list('preToolUse', 'mcp__github__create_issue').map((hook) => hook.name)).toEqual([
      'all',
      'mcp',
    ]);
    expect(hooks.list('postToolUse', 'echo')).toEqual([]);
  });

  it('removes every hook of a plugin when it unloads, and one hook by its unregister function', () => {
    const hooks = new DefaultHookRegistry();
    const unregister = hooks.register(
      pre('mine', () => undefined),
      'plugin-a',
    );
    hooks.register(
      pre('also-mine', () => undefined),
      'plugin-a',
    );
    hooks.register(
      pre('theirs', () => undefined),
      'plugin-b',
    );
    hooks.register(pre('host', () => undefined));
    unregister();
    expect(hooks.list('preToolUse', 'x').map((hook) => hook.name)).toEqual(['also-mine', 'theirs', 'host']);
    hooks.removeOwner('plugin-a');
    expect(hooks.list('preToolUse', 'x').map((hook) => hook.name)).toEqual(['theirs', 'host']);
  });
});

describe('hooks in the call lifecycle', () => {
  it('runs two preToolUse hooks in registration order, the second seeing the first one’s rewrite', async () => {
    const seen: string[] = [];
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(
      pre('first', (call) => {
        seen.push(`first:${(call.args as { text: string }).text}`);
        return { updatedArgs: { text: 'rewritten' } };
      }),
    );
    h.hooks.register(
      pre('second', (call) => {
        seen.push(`second:${(call.args as { text: string }).text}`);
      }),
    );
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'original' } }]);
    expect(seen).toEqual(['first:original', 'second:rewritten']);
    expect(result).toMatchObject({ ok: true, value: 'rewritten' });
    const events = await h.eventsOf('c1');
    expect(
      events.filter((event) => event.type === 'hook.completed').map((event) => 'hook' in event && event.hook),
    ).toEqual(['first', 'second']);
    expect(events.find((event) => event.type === 'tool.execution_start')).toMatchObject({
      arguments: { text: 'rewritten' },
    });
  });

  it('denies the call when a preToolUse hook denies, with the hook’s reason', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(pre('no-echo', () => ({ decision: 'deny', reason: 'echo is off today' })));
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(result?.ok === false && result.error).toContain('echo is off today');
    expect(result?.ok === false && result.error).toContain('no-echo');
    const types = (await h.eventsOf('c1')).map((event) => event.type);
    expect(types).not.toContain('tool.execution_start');
    expect(types.at(-1)).toBe('tool.execution_complete');
  });

  it('lets an approving hook skip the ask in a headless session', async () => {
    const h = await harness({ tools: [echoTool], permissions: { ask: ['echo'] } });
    h.hooks.register(pre('approver', () => ({ decision: 'approve' })));
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: true, value: 'hi' });
    const events = await h.eventsOf('c1');
    expect(events.map((event) => event.type)).not.toContain('permission.requested');
    expect(events.find((event) => event.type === 'permission.completed')).toMatchObject({
      behavior: 'allow',
    });
  });

  it('never lets an approving hook override a deny rule', async () => {
    const h = await harness({ tools: [echoTool], permissions: { deny: ['echo'] } });
    h.hooks.register(pre('approver', () => ({ decision: 'approve' })));
    const [result] = await h.run([{ name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
  });

  it('rejects rewritten arguments that do not match the schema as input_invalid without running the tool', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(pre('breaker', () => ({ updatedArgs: { text: 7 } })));
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'input_invalid' });
    const types = (await h.eventsOf('c1')).map((event) => event.type);
    expect(types).not.toContain('tool.execution_start');
    expect(types.at(-1)).toBe('tool.execution_complete');
  });

  it('hides the output from the model when a hook suppresses it, keeping the structured data', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(pre('quiet', () => ({ suppressOutput: true })));
    const [result] = await h.run([{ name: 'echo', args: { text: 'secret value' } }]);
    expect(result).toMatchObject({ ok: true, structured: { length: 12 } });
    expect(result?.ok && result.value).not.toContain('secret value');
    expect(result?.ok && result.value).toContain('hidden by hook "quiet"');
  });

  it('appends context from preToolUse and postToolUse hooks to what the model sees, marked with the hook', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(pre('reminder', () => ({ additionalContext: 'Remember the style guide.' })));
    h.hooks.register({
      event: 'postToolUse',
      name: 'auditor',
      run: () => ({ additionalContext: 'Logged for audit.' }),
    });
    const [result] = await h.run([{ name: 'echo', args: { text: 'body' } }]);
    expect(result?.ok && result.value).toBe(
      'body\n\n[context from hook "reminder"]\nRemember the style guide.\n\n[context from hook "auditor"]\nLogged for audit.',
    );
  });

  it('denies the call with the hook name and error when a preToolUse hook throws', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(
      pre('crashy', () => {
        throw new Error('config file missing');
      }),
    );
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(result?.ok === false && result.error).toContain('crashy');
    expect(result?.ok === false && result.error).toContain('config file missing');
    expect((await h.eventsOf('c1')).find((event) => event.type === 'hook.completed')).toMatchObject({
      outcome: 'error',
    });
  });

  it('denies the call when a preToolUse hook runs past its timeout', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register(
      pre(
        'sleepy',
        (_call, signal) =>
          new Promise((resolve) => signal.addEventListener('abort', () => resolve(undefined))),
        {
          timeoutMs: 30,
        },
      ),
    );
    const [result] = await h.run([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]);
    expect(result).toMatchObject({ ok: false, code: 'not_permitted' });
    expect(result?.ok === false && result.error).toContain('sleepy');
    expect(result?.ok === false && result.error).toContain('timed out');
    expect((await h.eventsOf('c1')).find((event) => event.type === 'hook.completed')).toMatchObject({
      outcome: 'timeout',
    });
  });

  it('shows postToolUseFailure guidance to the model together with the error', async () => {
    const h = await harness({ tools: [failingTool] });
    const guide: ToolHook = {
      event: 'postToolUseFailure',
      name: 'firefighter',
      run: () => ({ guidance: 'Call the fire brigade first.' }),
    };
    h.hooks.register(guide);
    const [result] = await h.run([{ name: 'broken', args: {} }]);
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(result?.ok === false && result.error).toBe(
      'the disk is on fire\n\n[guidance from hook "firefighter"]\nCall the fire brigade first.',
    );
  });

  it('reports a throwing postToolUse hook as a warning and keeps the result', async () => {
    const h = await harness({ tools: [echoTool] });
    h.hooks.register({
      event: 'postToolUse',
      name: 'flaky-post',
      run: () => {
        throw new Error('post hook broke');
      },
    });
    const [result] = await h.run([{ name: 'echo', args: { text: 'fine' } }]);
    expect(result).toMatchObject({ ok: true, value: 'fine' });
    await h.settle();
    const warning = h.events.find((event) => event.type === 'session.warning');
    expect(warning && 'message' in warning && warning.message).toContain('flaky-post');
  });

  it('runs only the hooks whose matcher names the tool', async () => {
    const ran: string[] = [];
    const h = await harness({ tools: [echoTool, failingTool] });
    h.hooks.register(pre('only-broken', () => void ran.push('only-broken'), { matcher: 'brok*' }));
    await h.run([{ name: 'echo', args: { text: 'x' } }]);
    expect(ran).toEqual([]);
    await h.run([{ name: 'broken', args: {} }]);
    expect(ran).toEqual(['only-broken']);
  });
});
