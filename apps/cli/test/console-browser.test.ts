import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { describeWithSystemTools, findSystemTool } from '@quiver/test-utils';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { quiver, tempDir, write } from './helpers.js';
import { connectStdio, type ServeWorkspace, serveWorkspace, textOf } from './serve-fixtures.js';

/** Where the screenshots go: printed, so a person can look at what the page showed. */
const SCREENSHOTS = path.join(os.tmpdir(), 'quiver-console-screenshots');

let workspace: ServeWorkspace;
let runtime: { dir: string; cleanup: () => void };
let data: { dir: string; cleanup: () => void };
let client: Client;
let closeClient: () => Promise<void>;
let browser: Browser;
let page: Page;
let address: string;

/** The page's own window, as far as these tests read it. */
interface Styles {
  getComputedStyle(element: unknown): { color: string };
}

const env = () => ({ XDG_RUNTIME_DIR: runtime.dir, XDG_DATA_HOME: data.dir });

/** Calls a tool the way an MCP client without elicitation does; the ask can only be answered in the page. */
function call(name: string, args: Record<string, unknown>) {
  return client.callTool({ name, arguments: args }, { timeout: 60_000 });
}

async function waitingAsk(): Promise<string> {
  const box = await page.waitForSelector('.ask', { timeout: 20_000 });
  return (await box?.evaluate((element) => element.textContent ?? '')) ?? '';
}

async function untilNoAsk(): Promise<void> {
  await page.waitForFunction("document.querySelectorAll('.ask').length === 0", { timeout: 10_000 });
}

describeWithSystemTools(['chromium'])('the console page, in Debian chromium', () => {
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    console.info(`console screenshots: ${SCREENSHOTS}`);
    workspace = serveWorkspace();
    runtime = tempDir('quiver-console-runtime-');
    data = tempDir('quiver-console-data-');
    const connected = await connectStdio(workspace.dir, { env: env() });
    client = connected.client;
    closeClient = () => connected.client.close();
    const listed = await quiver(['console', '--json'], { cwd: workspace.dir, env: env() });
    expect(listed.stderr).toBe('');
    const [running] = JSON.parse(listed.stdout) as Array<{ url: string; kind: string }>;
    expect(running?.kind).toBe('serve (stdio)');
    address = running?.url as string;
    browser = await puppeteer.launch({
      executablePath: findSystemTool('chromium') as string,
      headless: true,
      // Root in a container has no user namespace for chromium's own sandbox.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(address);
    await page.waitForSelector('.status.live', { timeout: 20_000 });
    // The secret leaves the address bar at once.
    expect(page.url()).not.toContain('token');
    // An edit needs a read of the file first.
    expect((await call('read_file', { path: 'README.md' })).isError).toBeFalsy();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await closeClient?.();
    workspace?.cleanup();
    runtime?.cleanup();
    data?.cleanup();
  });

  it('shows an ask the client cannot show, with its coloured diff, and runs the call on "allow once"', async () => {
    const pending = call('edit_file', {
      path: 'README.md',
      old_string: 'quick brown fox',
      new_string: 'quick red fox',
    });
    const shown = await waitingAsk();
    expect(shown).toContain('Allow edit_file: README.md?');
    expect(shown).toContain('- quick brown fox');
    expect(shown).toContain('+ quick red fox');
    const colours = await page.$$eval('.ask .removed, .ask .added', (lines) =>
      lines.map((line) => (globalThis as unknown as Styles).getComputedStyle(line).color),
    );
    expect(new Set(colours).size).toBe(2);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'ask.png'), fullPage: true });
    await page.click('.ask button[data-choice="once"]');
    const result = await pending;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(readFileSync(path.join(workspace.dir, 'README.md'), 'utf8')).toContain('quick red fox');
    await untilNoAsk();
    await page.waitForFunction("document.querySelector('#calls tbody td.ok') !== null", {
      timeout: 10_000,
    });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'calls.png'), fullPage: true });
  });

  it('returns the person\'s message to the model on "deny"', async () => {
    const pending = call('edit_file', { path: 'README.md', old_string: 'red fox', new_string: 'blue fox' });
    await waitingAsk();
    await page.type('.ask textarea', 'leave the fox red, edit docs/ instead');
    // Another ask arriving while the person types keeps what they typed and where the buttons are.
    const second = call('edit_file', { path: 'README.md', old_string: 'red fox', new_string: 'green fox' });
    await page.waitForFunction("document.querySelectorAll('.ask').length === 2", { timeout: 10_000 });
    await page.click('.ask button[data-choice="deny"]');
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('leave the fox red, edit docs/ instead');
    expect(readFileSync(path.join(workspace.dir, 'README.md'), 'utf8')).toContain('quick red fox');
    await page.waitForFunction("document.querySelectorAll('.ask').length === 1", { timeout: 10_000 });
    expect(await page.$eval('.ask pre', (pre) => pre.textContent)).toContain('green fox');
    await page.click('.ask button[data-choice="deny"]');
    expect(textOf(await second)).toContain('denied by the person');
    await untilNoAsk();
  });

  it('saves an "always allow" grant that holds for the next call without asking', async () => {
    const pending = call('edit_file', { path: 'README.md', old_string: 'quick red', new_string: 'slow red' });
    const shown = await waitingAsk();
    const always = await page.$eval(
      '.ask button[data-choice="project"]',
      (button) => button.textContent ?? '',
    );
    expect(always).toContain('Always allow (edit_file(');
    expect(shown).toContain('"Always allow" adds the rule edit_file(');
    await page.click('.ask button[data-choice="project"]');
    expect((await pending).isError).toBeFalsy();
    await untilNoAsk();
    const next = await call('edit_file', {
      path: 'README.md',
      old_string: 'slow red',
      new_string: 'fast red',
    });
    expect(next.isError, textOf(next)).toBeFalsy();
    expect(await page.$$('.ask')).toHaveLength(0);
    expect(readFileSync(path.join(workspace.dir, 'README.md'), 'utf8')).toContain('fast red fox');
    const saved = await quiver(['permissions', 'list', '--json'], { cwd: workspace.dir, env: env() });
    expect(saved.stdout).toContain('edit_file(');
  });

  it('lists the session with its client and trust, and finds past calls in the event log', async () => {
    const sessions = await page.$eval('#sessions', (list) => list.textContent ?? '');
    expect(sessions).toContain('serve (stdio) · serve-test 1.0.0 · personality dev · main · project trusted');
    await page.type('#history-query', 'fast red');
    await page.click('#history-form button');
    await page.waitForFunction("document.querySelectorAll('#history tbody tr').length === 1", {
      timeout: 10_000,
    });
    const found = await page.$eval('#history tbody', (body) => body.textContent ?? '');
    expect(found).toContain('edit_file');
    expect(found).toContain('fast red');
  });

  it('refuses requests for another host, from another origin, or without the secret', async () => {
    const port = new URL(address).port;
    const ask = (headers: Record<string, string>, pathname = '/api/ping') =>
      new Promise<number>((resolve, reject) => {
        const sent = request({ host: '127.0.0.1', port, path: pathname, headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        sent.on('error', reject);
        sent.end();
      });
    const record = JSON.parse(
      (await quiver(['console', '--json'], { cwd: workspace.dir, env: env() })).stdout,
    )[0] as { url: string };
    const token = new URL(record.url).hash.replace('#token=', '');
    const bearer = { authorization: `Bearer ${token}` };
    expect(await ask({ ...bearer, host: `127.0.0.1:${port}` })).toBe(200);
    expect(await ask({ ...bearer, host: `attacker.example:${port}` })).toBe(421);
    expect(await ask({ ...bearer, host: `127.0.0.1:${port}`, origin: 'http://attacker.example' })).toBe(403);
    expect(await ask({ host: `127.0.0.1:${port}` })).toBe(401);
    expect(await ask({ host: `127.0.0.1:${port}`, authorization: 'Bearer wrong' }, '/api/events')).toBe(401);
  });

  it('shows the project waiting for trust as quiver trust does, refuses an answer to a changed one, and trusts what it shows', async () => {
    const section = await page.waitForSelector('#trust-section:not([hidden]) button[data-trust]', {
      timeout: 10_000,
    });
    expect(section).not.toBeNull();
    const configFile = path.join(workspace.dir, 'quiver.yaml');
    const shown = await page.$eval('#trust', (box) => box.textContent ?? '');
    expect(shown).toContain(
      `${configFile} · sha256 ${createHash('sha256').update(readFileSync(configFile)).digest('hex')}`,
    );
    expect(shown).toContain('plugin ./workbench: ');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'trust.png'), fullPage: true });
    // Changed after the page showed it: the answer is refused and the page shows the new one.
    const personality = path.join(workspace.dir, 'personalities/dev.yaml');
    write(personality, readFileSync(personality, 'utf8').replace('log_steps]', 'log_steps, list_*]'));
    await page.click('#trust button[data-trust]');
    await page.waitForFunction(
      "(document.querySelector('#trust')?.textContent ?? '').includes('Not trusted: the configuration changed')",
      { timeout: 10_000 },
    );
    const trust = () => quiver(['trust', '--json'], { cwd: workspace.dir, env: env() });
    expect(JSON.parse((await trust()).stdout).state).not.toBe('trusted');
    expect(await page.$eval('#trust', (box) => box.textContent ?? '')).toContain('list_*');
    await page.click('#trust button[data-trust]');
    await page.waitForFunction(
      "(document.querySelector('#trust')?.textContent ?? '').startsWith('Trusted ')",
      {
        timeout: 10_000,
      },
    );
    expect(JSON.parse((await trust()).stdout).state).toBe('trusted');
  });
});
