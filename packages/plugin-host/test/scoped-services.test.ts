import type { Session } from '@quiver/runtime';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { type CapabilityBackend, definePlugin, defineTool, ok } from '@quiver/types';
import { inject, injectable } from 'tsyringe';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Personality, QuiverHost, type ServiceDescriptor, TOKENS, type Token } from '../src/index.js';
import { tempDir } from './helpers.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** Answers which capabilities its context carries: only those it declared should be there. */
function capabilityProbe(name: string, capabilities: Record<string, unknown>) {
  return defineTool({
    name,
    description: `Lists the capabilities it was given (${name}).`,
    input: z.object({}),
    capabilities,
    execute: (_args, ctx) => ok(Object.keys(ctx.capabilities).sort().join(',') || 'none'),
  });
}

const probesPlugin = definePlugin({
  id: 'probes',
  apiVersion: 1,
  version: '1.0.0',
  register(ctx) {
    ctx.registerTool(capabilityProbe('declares_reach', { fs_reach: { mode: 'read' } }));
    ctx.registerTool(capabilityProbe('declares_nothing', {}));
  },
});

const personalityToken = Symbol('PersonalityGreeter');
const sessionToken = Symbol('SessionCounter');

@injectable()
class PersonalityGreeter {
  constructor(@inject(TOKENS.personality) readonly personality: Personality) {}
}

@injectable()
class SessionCounter {
  constructor(@inject(personalityToken) readonly greeter: PersonalityGreeter) {}
}

const embedderServices: ServiceDescriptor[] = [
  { token: personalityToken, scope: 'personality', useClass: PersonalityGreeter },
  { token: sessionToken, scope: 'session', useClass: SessionCounter },
];

describe('services built per scope', () => {
  let host: QuiverHost | undefined;
  let cleanup: (() => void) | undefined;
  afterEach(async () => {
    await host?.close();
    cleanup?.();
  });

  /** What the session's own container resolves the token to. */
  function serviceOf<T>(session: Session, token: Token<T>): T {
    return host!.containerOf(session).resolve<T>(token);
  }

  async function createHost() {
    const temp = tempDir();
    cleanup = temp.cleanup;
    host = await QuiverHost.create({
      sqlite: sqliteBackend,
      workspace: temp.dir,
      logger: silent,
      backends: () => [
        { capability: 'fs_reach', resolve: () => ({ roots: [temp.dir], mode: 'read' }) } as CapabilityBackend,
      ],
      builtinPlugins: [{ definition: probesPlugin, source: 'test:probes' }],
      embeddedPersonalities: {
        reviewer: { id: 'reviewer', plugins: ['probes'], permissions: { allow: ['declares_*'] } },
        builder: { id: 'builder', plugins: ['probes'], permissions: { allow: ['declares_*'] } },
      },
      services: embedderServices,
    });
    return host;
  }

  it("shares one personality's permission engine between its sessions, and not with another personality", async () => {
    const host = await createHost();
    const first = host.createSession({ personality: 'reviewer' });
    const second = host.createSession({ personality: 'reviewer' });
    const other = host.createSession({ personality: 'builder' });
    const engineOf = (session: Session) => serviceOf(session, TOKENS.permissionEngine);
    expect(engineOf(first)).toBe(engineOf(second));
    expect(engineOf(other)).not.toBe(engineOf(first));
  });

  it('gives each session its own executor and state, built by its container', async () => {
    const host = await createHost();
    const first = host.createSession({ personality: 'reviewer' });
    const second = host.createSession({ personality: 'reviewer' });
    await first.execute([{ name: 'declares_nothing', args: {} }]);
    await second.execute([{ name: 'declares_nothing', args: {} }]);
    const executorOf = (session: Session) => serviceOf(session, TOKENS.callExecutors).current;
    expect(executorOf(first)).toBeDefined();
    expect(executorOf(first)).not.toBe(executorOf(second));
    expect(serviceOf(first, TOKENS.sessionState)).toBe(first.state);
    expect(first.state).not.toBe(second.state);
  });

  it("builds an embedder's service once per personality and once per session", async () => {
    const host = await createHost();
    const first = host.createSession({ personality: 'reviewer' });
    const second = host.createSession({ personality: 'reviewer' });
    const other = host.createSession({ personality: 'builder' });
    const counter = (session: typeof first) =>
      host.containerOf(session).resolve<SessionCounter>(sessionToken);
    expect(counter(first)).toBe(counter(first));
    expect(counter(first)).not.toBe(counter(second));
    expect(counter(first).greeter).toBe(counter(second).greeter);
    expect(counter(first).greeter.personality.id).toBe('reviewer');
    expect(counter(other).greeter.personality.id).toBe('builder');
  });

  it('hands a tool the capability it declares and none it does not declare', async () => {
    const host = await createHost();
    const session = host.createSession({ personality: 'reviewer' });
    const [declared, undeclared] = await session.execute([
      { name: 'declares_reach', args: {} },
      { name: 'declares_nothing', args: {} },
    ]);
    expect(declared).toMatchObject({ ok: true, value: 'fs_reach' });
    expect(undeclared).toMatchObject({ ok: true, value: 'none' });
  });

  it('writes a session through one log writer across its executors, and ends it with the session', async () => {
    const host = await createHost();
    const session = host.createSession({ personality: 'reviewer' });
    await session.execute([{ id: 'before', name: 'declares_nothing', args: {} }]);
    const firstExecutor = serviceOf(session, TOKENS.callExecutors).current;
    // New permissions: a new executor, the same writer and the same log.
    session.updateOptions({ permissions: { deny: ['declares_reach'] } });
    await session.execute([{ id: 'after', name: 'declares_nothing', args: {} }]);
    expect(serviceOf(session, TOKENS.callExecutors).current).not.toBe(firstExecutor);
    await session.close();
    const calls = (await host.eventLog.sessionCalls(session.id)).map(
      (call) => `${call.callId}:${call.status}`,
    );
    expect(calls).toEqual(['before:ok', 'after:ok']);
    const [summary] = (await host.eventLog.recentSessions(10)).filter((entry) => entry.id === session.id);
    expect(summary?.calls).toBe(2);
  });

  it('refuses a session it did not create when asked for its container', async () => {
    const host = await createHost();
    const other = await QuiverHost.create({
      sqlite: sqliteBackend,
      workspace: host.workspace,
      logger: silent,
      embeddedPersonalities: { default: { id: 'default' } },
    });
    const foreign = other.createSession();
    expect(() => host.containerOf(foreign)).toThrow(/was not created by this host/);
    await other.close();
  });
});
