import {
  type CapabilityBackendRegistry,
  type CapabilityHandles,
  type CapabilityName,
  type CapabilityRequest,
  defineTool,
  ok,
  type Tool,
} from '@quiver/types';
import { z } from 'zod';
import type { ExecuteContext } from '../src/index.js';

export function executeContext(overrides: Partial<ExecuteContext> = {}): ExecuteContext {
  return {
    sessionId: 'session-1',
    personalityId: 'default',
    agent: { kind: 'main', id: 'agent-1' },
    turn: 1,
    ...overrides,
  };
}

/** A tool that echoes its `text` argument. */
export function echoTool(name = 'echo', extra: Partial<Tool> = {}): Tool {
  return defineTool({
    name,
    description: `Echoes text (${name})`,
    input: z.object({ text: z.string() }),
    capabilities: {},
    execute: (args: { text: string }) => ok(args.text),
    ...extra,
  } as Tool);
}

/** Backends from a plain map; records every request it resolves. */
export class MapBackends implements CapabilityBackendRegistry {
  readonly requests: CapabilityRequest[] = [];
  constructor(
    private readonly handles: Partial<{ [K in CapabilityName]: CapabilityHandles[K] | (() => never) }>,
  ) {}

  has(capability: CapabilityName): boolean {
    return capability in this.handles;
  }

  async resolve<K extends CapabilityName>(request: CapabilityRequest<K>): Promise<CapabilityHandles[K]> {
    this.requests.push(request);
    const handle = this.handles[request.capability];
    if (typeof handle === 'function') return (handle as () => never)();
    return handle as CapabilityHandles[K];
  }
}

/** Resolves after `predicate` holds, polling on the event loop (no timing assumptions). */
export async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setImmediate(resolve));
}
