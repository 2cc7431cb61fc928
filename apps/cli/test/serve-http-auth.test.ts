import { realpathSync } from 'node:fs';
import path from 'node:path';
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { describeWithSystemTools, usePostgresServer } from '@quiver/test-utils';
import { type AuthorizationServer, startAuthorizationServer } from '@quiver/test-utils/authorization-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quiver, write } from './helpers.js';
import { serveWorkspace, textOf } from './serve-fixtures.js';
import {
  type RunningHttpServe,
  type SignedInServe,
  startHttpServe,
  startSignedInServe,
} from './serve-http-fixtures.js';

const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const CLIENTS = [
  { clientId: 'alice', clientSecret: 'alice-secret', claims: { groups: ['staff', 'developers'] } },
  { clientId: 'bob', clientSecret: 'bob-secret', claims: { groups: ['readers'] } },
  { clientId: 'mallory', clientSecret: 'mallory-secret', claims: { groups: ['guests'] } },
];

let running: SignedInServe;
let authorization: AuthorizationServer;
let serve: RunningHttpServe;
let dir: string;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  running = await startSignedInServe({
    clients: CLIENTS,
    personalities: { developers: 'dev', readers: 'reader' },
    files: {
      'personalities/reader.yaml': 'id: reader\nplugins: [tools-code]\npermissions:\n  allow: [read_file]\n',
    },
  });
  ({ authorization, serve, dir } = running);
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await running?.close();
});

const opened: Client[] = [];
afterEach(async () => {
  for (const client of opened.splice(0)) await client.close();
});

/** A client that signs in with the client credentials grant, finding the server through the 401. */
async function signIn(
  clientId: string,
  revision: (typeof REVISIONS)[number],
  /** The person's answer to Quiver's permission asks, given through the client. */
  answer?: 'once' | 'session' | 'project',
): Promise<Client> {
  const registered = CLIENTS.find((client) => client.clientId === clientId)!;
  const authProvider = new ClientCredentialsProvider({
    clientId,
    clientSecret: registered.clientSecret,
    expectedIssuer: authorization.issuer,
  });
  const client = new Client(
    { name: `${clientId}-client`, version: '1.0.0' },
    {
      ...(revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : {}),
      ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (answer)
    client.setRequestHandler('elicitation/create', () => ({
      action: 'accept',
      content: { decision: answer },
    }));
  await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { authProvider }));
  opened.push(client);
  return client;
}

/** What the serve's console page gets first: its sessions as the page lists them. */
async function consoleSnapshot(): Promise<{ sessions: Array<{ caller?: string; personality: string }> }> {
  const listed = await quiver(['console', '--json'], { cwd: dir });
  // Other tests' servers may have consoles too: this serve's is the one of its workspace.
  const consoles = JSON.parse(listed.stdout) as Array<{ url: string; workspace: string }>;
  const url = new URL(consoles.find((entry) => entry.workspace === realpathSync(dir))?.url as string);
  const stop = new AbortController();
  const events = await fetch(new URL('/api/events', url), {
    headers: { authorization: `Bearer ${url.hash.replace('#token=', '')}` },
    signal: stop.signal,
  });
  let buffer = '';
  try {
    for await (const chunk of events.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += Buffer.from(chunk).toString('utf8');
      const snapshot = /^event: snapshot\ndata: (.*)$/m.exec(buffer);
      if (snapshot && buffer.includes('\n\n', snapshot.index)) return JSON.parse(snapshot[1] as string);
    }
  } finally {
    stop.abort();
  }
  throw new Error(`The console closed its event stream before its snapshot: ${buffer}`);
}

describe('quiver serve --http with serve.auth', () => {
  for (const revision of REVISIONS) {
    it(`gives two callers their own personalities and refuses a third, on ${revision}`, async () => {
      const alice = await signIn('alice', revision);
      const aliceTools = (await alice.listTools()).tools.map((tool) => tool.name);
      expect(aliceTools).toContain('count_slowly');
      expect(textOf(await alice.callTool({ name: 'count_slowly', arguments: { steps: 1 } }))).toContain(
        'counted to 1',
      );

      const bob = await signIn('bob', revision);
      const bobTools = (await bob.listTools()).tools.map((tool) => tool.name);
      expect(bobTools).toContain('read_file');
      expect(bobTools).not.toContain('count_slowly');
      expect(textOf(await bob.callTool({ name: 'read_file', arguments: { path: 'README.md' } }))).toContain(
        'The quick brown fox.',
      );

      await expect(signIn('mallory', revision)).rejects.toThrow();
      expect(authorization.issued).toContain(`mallory ${serve.url}`);
      expect(serve.stderr()).toContain('caller "alice" (client "alice") signed in: personality dev');
      expect(serve.stderr()).toContain('caller "bob" (client "bob") signed in: personality reader');
    });
  }

  it('records who called: quiver log and the console name each signed-in caller of a session', async () => {
    const alice = await signIn('alice', '2025-11-25');
    await alice.callTool({ name: 'count_slowly', arguments: { steps: 1 } });
    const bob = await signIn('bob', '2026-07-28');
    await bob.callTool({ name: 'read_file', arguments: { path: 'README.md' } });

    type Summary = { personalityId?: string; caller?: string; calls: number };
    const logged = async () => {
      const listed = await quiver(['--trust-project', 'log', '--json', '--limit', '200'], { cwd: dir });
      expect(listed.code, listed.stderr).toBe(0);
      return JSON.parse(listed.stdout).sessions as Summary[];
    };
    // The serve writes its log behind its calls: at most a few hundred milliseconds later.
    let sessions = await logged();
    for (
      let attempt = 0;
      attempt < 20 && !sessions.some((s) => s.caller === 'bob' && s.calls > 0);
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      sessions = await logged();
    }
    const called = sessions.filter((session) => session.calls > 0);
    expect(called.filter((session) => session.caller === 'alice').map((s) => s.personalityId)).toContain(
      'dev',
    );
    expect(called.filter((session) => session.caller === 'bob').map((s) => s.personalityId)).toContain(
      'reader',
    );
    expect(sessions.some((session) => session.caller === 'mallory')).toBe(false);
    const console = await consoleSnapshot();
    const callers = new Map(console.sessions.map((session) => [session.caller, session.personality]));
    expect(callers.get('alice')).toBe('dev');
    expect(callers.get('bob')).toBe('reader');
    expect(callers.has('mallory')).toBe(false);
    const text = await quiver(['--trust-project', 'log', '--limit', '200'], { cwd: dir });
    expect(text.stdout).toMatch(/reader main {2}caller bob {2}1 calls/);
    expect(text.stdout).toMatch(/dev main {2}caller alice {2}1 calls/);
  });

  it('saves an "always allow" with the caller whose session asked for it: quiver permissions list names them', async () => {
    const alice = await signIn('alice', '2025-11-25', 'project');
    expect(
      textOf(await alice.callTool({ name: 'terminal', arguments: { command: 'touch by-alice' } })),
    ).not.toContain('not_permitted');
    const listed = await quiver(['--trust-project', 'permissions', 'list', '--json'], { cwd: dir });
    expect(listed.code, listed.stderr).toBe(0);
    const grants = JSON.parse(listed.stdout).grants as Array<{ rule: string; caller?: string }>;
    expect(grants).toEqual([
      expect.objectContaining({ rule: 'terminal(touch by-alice:*)', caller: 'alice' }),
    ]);
    const text = await quiver(['--trust-project', 'permissions', 'list'], { cwd: dir });
    expect(text.stdout).toContain('grant terminal(touch by-alice:*)  asked for by caller alice');
  });

  it('publishes its protected resource metadata and refuses requests without a valid token for it', async () => {
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', serve.url);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: serve.url, authorization_servers: [authorization.issuer] });

    const list = (authorization?: string) =>
      fetch(serve.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });
    const anonymous = await list();
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl.href}"`);

    const claims = { iss: authorization.issuer, sub: 'alice', client_id: 'alice', groups: ['developers'] };
    const elsewhere = await authorization.sign({ ...claims, aud: 'https://other.example/mcp' });
    expect((await list(`Bearer ${elsewhere}`)).status).toBe(401);
    const expired = await authorization.sign({ ...claims, aud: serve.url }, -60);
    expect((await list(`Bearer ${expired}`)).status).toBe(401);
    const valid = await authorization.sign({ ...claims, aud: serve.url });
    expect((await list(`Bearer ${valid}`)).status).toBe(200);
  });

  it('refuses --allow-remote without serve.auth unless --insecure-no-auth is given', async () => {
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    const refused = await quiver(['--trust-project', 'serve', '--http', '0.0.0.0:0', '--allow-remote'], {
      cwd: workspace.dir,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('without authentication');
    expect(refused.stderr).toContain('--insecure-no-auth');
  });
});

describe('quiver serve --http with serve.auth.introspection (opaque tokens)', () => {
  const SECRET_VARIABLE = 'QUIVER_TEST_INTROSPECTION_SECRET';

  it('asks the authorization server about each token and maps the caller it names', async () => {
    const resourceServer = { clientId: 'quiver-gateway', clientSecret: 'gateway-secret' };
    const opaque = await startAuthorizationServer([...CLIENTS, resourceServer], { opaque: true });
    cleanups.push(() => opaque.close());
    const workspace = serveWorkspace();
    cleanups.push(workspace.cleanup);
    write(
      path.join(workspace.dir, 'quiver.yaml'),
      [
        'plugins:',
        '  - ./workbench',
        'defaultPersonality: dev',
        'serve:',
        '  auth:',
        `    issuer: ${opaque.issuer}`,
        '    introspection:',
        `      url: ${opaque.introspectionEndpoint}`,
        `      clientId: ${resourceServer.clientId}`,
        `      clientSecret: \${${SECRET_VARIABLE}}`,
        '    claim: groups',
        '    personalities: { developers: dev }',
        '',
      ].join('\n'),
    );
    const unset = await quiver(['--trust-project', 'serve', '--http', '127.0.0.1:0'], { cwd: workspace.dir });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(`${SECRET_VARIABLE} is not set`);

    process.env[SECRET_VARIABLE] = resourceServer.clientSecret;
    const gateway = await startHttpServe(workspace.dir);
    delete process.env[SECRET_VARIABLE];
    cleanups.push(() => gateway.stop());
    const connectWith = async (token: string) => {
      const client = new Client({ name: 'opaque-client', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(gateway.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      opened.push(client);
      return client;
    };
    const alice = await connectWith(await opaque.tokenFor('alice', gateway.url));
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toContain('count_slowly');
    await expect(connectWith(await opaque.tokenFor('mallory', gateway.url))).rejects.toThrow();
    await expect(connectWith('not-a-token-it-issued')).rejects.toThrow();
    expect(gateway.stderr()).toContain('caller "alice" (client "alice") signed in: personality dev');
    expect(gateway.stderr()).not.toContain('caller "mallory"');
  });
});

describeWithSystemTools(['postgres', 'initdb'])('serve.auth with two replicas on one PostgreSQL', () => {
  const database = usePostgresServer();
  const URL_VARIABLE = 'QUIVER_TEST_AUTH_DATABASE_URL';
  const RESOURCE = 'https://tools.example.test/mcp';

  it("answers a caller's MCP session on either replica and refuses it to another caller on both", async () => {
    process.env[URL_VARIABLE] = await database().freshDatabase('auth');
    process.env.QUIVER_TEST_PROJECT = 'auth-replicas';
    const replicas: RunningHttpServe[] = [];
    for (let index = 0; index < 2; index += 1) {
      const workspace = serveWorkspace();
      cleanups.push(workspace.cleanup);
      write(
        path.join(workspace.dir, 'quiver.yaml'),
        [
          'plugins:',
          '  - ./workbench',
          'defaultPersonality: dev',
          'storage:',
          '  kind: postgres',
          `  url: \${${URL_VARIABLE}}`,
          `  project: \${QUIVER_TEST_PROJECT}`,
          'serve:',
          '  auth:',
          `    issuer: ${authorization.issuer}`,
          `    jwksUri: ${authorization.jwksUri}`,
          `    resource: ${RESOURCE}`,
          '    claim: groups',
          '    personalities: { developers: dev, readers: dev }',
          '',
        ].join('\n'),
      );
      const replica = await startHttpServe(workspace.dir);
      cleanups.push(() => replica.stop());
      replicas.push(replica);
    }
    delete process.env[URL_VARIABLE];
    delete process.env.QUIVER_TEST_PROJECT;
    const [first, second] = replicas as [RunningHttpServe, RunningHttpServe];
    const alice = `Bearer ${await authorization.tokenFor('alice', RESOURCE)}`;
    const bob = `Bearer ${await authorization.tokenFor('bob', RESOURCE)}`;
    const post = (url: string, authorization: string, body: unknown, sessionId?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization,
          ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify(body),
      });
    const opened = await post(first.url, alice, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const sessionId = opened.headers.get('mcp-session-id') as string;
    expect(sessionId).toBeTruthy();
    await (
      await post(first.url, alice, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)
    ).text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

    const taken = await post(second.url, bob, list, sessionId);
    expect(taken.status).toBe(403);
    expect(await taken.text()).toContain('another caller');
    expect((await post(first.url, bob, list, sessionId)).status).toBe(403);
    const own = await post(second.url, alice, list, sessionId);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('count_slowly');
  });
});
