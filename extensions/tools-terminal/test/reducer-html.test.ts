import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalReducer, terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';

const textOf = (result: ToolResult) => (result.ok ? result.value : result.error) ?? '';

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

/** A page as sites ship them: one line of markup, a large script and style, entities in the text. */
function page(): string {
  const sections = Array.from(
    { length: 30 },
    (_, index) =>
      `<section><h2 id="s${index}">Step ${index}: configure the &quot;orders&quot; queue</h2><p>Set <code>retries</code> to ${index} &amp; restart the worker.</p></section>`,
  ).join('');
  const script = `<script>${'window.analytics.push({event:"view"});'.repeat(400)}</script>`;
  const style = `<style>${'.nav a{color:#123;padding:2px}'.repeat(300)}</style>`;
  return `<!DOCTYPE html><html><head><title>Orders service &mdash; operations guide</title>${style}</head><body>${script}<nav><a href="/">Home</a></nav><main><h1>Operations guide</h1>${sections}</main></body></html>`;
}

describe('a web page printed to the terminal', () => {
  it('is its title, its outline and its text, without markup, scripts or styles', async () => {
    await writeFile(path.join(workspace.root, 'guide.html'), page());
    const { ctx } = await createContext(workspace);
    const command = 'cat guide.html';
    const result = await Promise.resolve(terminalTool.execute({ command }, ctx));
    const reduced = textOf(terminalReducer.reduce(result, { toolName: 'terminal', args: { command } }));
    expect(reduced).toContain('"Orders service — operations guide"');
    expect(reduced).toContain('# Operations guide');
    for (let index = 0; index < 30; index++)
      expect(reduced).toContain(`## Step ${index}: configure the "orders" queue`);
    expect(reduced).toContain('Set retries to 0 & restart the worker.');
    expect(reduced).not.toContain('window.analytics');
    expect(reduced).not.toContain('padding:2px');
    expect(reduced).not.toContain('<section>');
    expect(reduced.length).toBeLessThan(textOf(result).length / 4);
  });
});
