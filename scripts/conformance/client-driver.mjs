#!/usr/bin/env node
// The MCP client the conformance suite tests: Quiver's bridge, driven the way a user drives it.
// The suite runs `node client-driver.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO set. The
// driver writes a workspace whose quiver.yaml names the server, signs in with `quiver mcp login`
// for auth scenarios (a fetch plays the browser), then opens Quiver with createQuiver, waits for
// the server's tools and calls each one through the session's call pipeline.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(REPO, 'apps/cli/dist/bin.js');
const SERVER = 'conformance';
/** Arguments for the tools the scenarios offer; every other tool is called with none. */
const TOOL_ARGUMENTS = { add_numbers: { a: 2, b: 3 } };

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const serverUrl = process.argv[2];
if (!serverUrl) {
  console.error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> client-driver.mjs <server-url>');
  process.exit(2);
}

/** Client credentials the suite hands over for scenarios that use a client registered beforehand. */
function oauthSettings() {
  const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
  const client = { clientId: context.client_id, clientSecret: context.client_secret };
  if (scenario === 'auth/pre-registration') return client;
  if (scenario === 'auth/client-credentials-basic') return { ...client, grant: 'client_credentials' };
  if (scenario === 'auth/client-credentials-jwt') {
    const privateKeyFile = path.join(work, 'client-key.pem');
    writeFileSync(privateKeyFile, context.private_key_pem, { mode: 0o600 });
    return {
      clientId: context.client_id,
      privateKeyFile,
      signingAlgorithm: context.signing_algorithm ?? 'ES256',
      grant: 'client_credentials',
    };
  }
  // The document a user would host; the suite's server only checks that the URL is offered.
  if (scenario === 'auth/basic-cimd')
    return { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
  return undefined;
}
/** Scenarios whose server asks the client something: the server is allowed to, the driver answers. */
const allow = scenario.startsWith('elicitation') ? ['elicitation'] : [];
/** The person at the other end: accepts a form as offered, so the SDK fills in its defaults. */
const clientRelay = {
  elicit: async () => ({ action: 'accept', content: {} }),
  sample: async () => ({ action: 'refused', reason: 'the conformance driver has no model' }),
};

const work = mkdtempSync(path.join(os.tmpdir(), 'quiver-conformance-'));
const workspace = path.join(work, 'workspace');
const dataHome = path.join(work, 'data');
mkdirSync(path.join(workspace, 'personalities'), { recursive: true });
mkdirSync(dataHome);
const oauth = oauthSettings();
writeFileSync(
  path.join(workspace, 'quiver.yaml'),
  `mcpServers:\n  ${SERVER}:\n    url: ${JSON.stringify(serverUrl)}\n${oauth ? `    oauth: ${JSON.stringify(oauth)}\n` : ''}${allow.length > 0 ? `    allow: ${JSON.stringify(allow)}\n` : ''}defaultPersonality: conformance\n`,
);
writeFileSync(
  path.join(workspace, 'personalities/conformance.yaml'),
  `id: conformance\nplugins: [mcp-bridge]\nmcpServers:\n  ${SERVER}: {}\npermissions:\n  allow: [mcp__${SERVER}]\n`,
);
// Pins and tokens go to a data directory of this run only.
process.env.XDG_DATA_HOME = dataHome;

/** `quiver mcp login`, with a fetch following the printed URL as the person's browser would. */
function login() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, '--trust-project', 'mcp', 'login', SERVER, '--timeout', '20'],
      {
        cwd: workspace,
        env: { ...process.env, XDG_DATA_HOME: dataHome },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    createInterface({ input: child.stderr }).on('line', (line) => {
      output += `${line}\n`;
      if (/^https?:\/\//.test(line))
        fetch(line)
          .then((response) => response.text())
          .catch((error) => console.error(`browser: ${error.message}`));
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      console.error(`quiver mcp login exited with ${code}:\n${output}`);
      if (code === 0) resolve();
      else reject(new Error(`quiver mcp login ${SERVER} failed`));
    });
  });
}

const logger = {
  debug() {},
  info() {},
  warn: (message) => console.error(`quiver warn: ${message}`),
  error: (message) => console.error(`quiver error: ${message}`),
};

let failed = false;
try {
  const signsIn = scenario.startsWith('auth/') && oauth?.grant !== 'client_credentials';
  if (signsIn) await login();
  const { createQuiver } = await import(pathToFileURL(path.join(REPO, 'packages/wiring/dist/index.js')).href);
  const quiver = await createQuiver({ workspace, trustProject: true, logger });
  try {
    const session = quiver.createSession({ clientRelay });
    await session.ready();
    const tools = session
      .pool()
      .definitions.map((definition) => definition.name)
      .filter((name) => name.startsWith(`mcp__${SERVER}__`));
    if (tools.length === 0) console.error(`the server at ${serverUrl} offered no tools`);
    for (const name of tools) {
      const original = name.slice(`mcp__${SERVER}__`.length);
      const call = async () => (await session.execute([{ name, args: TOOL_ARGUMENTS[original] ?? {} }]))[0];
      let result = await call();
      console.error(`${name}: ${JSON.stringify(result)}`);
      // What a person does when a call needs more access: sign in again, then call again.
      if (signsIn && !result?.ok && result?.error?.includes('quiver mcp login')) {
        await login();
        result = await call();
        console.error(`${name} after signing in again: ${JSON.stringify(result)}`);
      }
      if (!result?.ok) failed = true;
    }
  } finally {
    await quiver.close();
  }
} catch (error) {
  console.error(`driver: ${error instanceof Error ? error.message : String(error)}`);
  failed = true;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
