import type { SessionOptions } from '@quiver/runtime';
import { sqliteBackend } from '@quiver/test-storage/sqlite';
import { type ToolRegistry } from '@quiver/types';
import { inject, injectable } from 'tsyringe';
import { describe, expect, it } from 'vitest';
import { QuiverHost, TOKEN_SCOPES, TOKENS, validateScopes } from '../src/index.js';

@injectable()
class RootServiceAskingForSession {
  constructor(@inject(TOKENS.sessionOptions) readonly options: SessionOptions) {}
}

@injectable()
class SessionServiceAskingForRoot {
  constructor(@inject(TOKENS.toolRegistry) readonly registry: ToolRegistry) {}
}

describe('service scopes', () => {
  it('fails at startup when a root service depends on a session service', async () => {
    await expect(
      QuiverHost.create({
        sqlite: sqliteBackend,
        services: [{ token: Symbol('bad'), scope: 'root', useClass: RootServiceAskingForSession }],
      }),
    ).rejects.toMatchObject({
      code: 'scope_violation',
      message: expect.stringContaining(
        'RootServiceAskingForSession (root scope) depends on SessionOptions (session scope)',
      ),
    });
  });

  it('allows a session service to depend on a root service', () => {
    expect(() =>
      validateScopes(
        [{ token: Symbol('ok'), scope: 'session', useClass: SessionServiceAskingForRoot }],
        TOKEN_SCOPES,
      ),
    ).not.toThrow();
  });

  it('never registers into the global tsyringe container', async () => {
    const { container } = await import('tsyringe');
    const host = await QuiverHost.create({
      sqlite: sqliteBackend,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    expect(container.isRegistered(TOKENS.toolRegistry)).toBe(false);
    expect(host.container.isRegistered(TOKENS.toolRegistry)).toBe(true);
    await host.close();
  });
});

describe('services built from a factory', () => {
  it('fails at startup when a personality factory asks for a session service', async () => {
    await expect(
      QuiverHost.create({
        sqlite: sqliteBackend,
        services: [
          {
            token: Symbol('SessionCount'),
            scope: 'personality',
            inject: [TOKENS.sessionState],
            useFactory: () => 0,
          },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'scope_violation',
      message: expect.stringContaining(
        'SessionCount (personality scope) depends on SessionState (session scope)',
      ),
    });
  });
});
