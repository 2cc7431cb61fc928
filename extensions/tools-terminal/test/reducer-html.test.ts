import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalOutputs } from './context.js';

const { root, reducedOutput } = terminalOutputs();

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
    await writeFile(path.join(root(), 'guide.html'), page());
    const { raw, reduced } = await reducedOutput('cat guide.html');
    expect(reduced).toContain('"Orders service — operations guide"');
    expect(reduced).toContain('# Operations guide');
    for (let index = 0; index < 30; index++)
      expect(reduced).toContain(`## Step ${index}: configure the "orders" queue`);
    expect(reduced).toContain('Set retries to 0 & restart the worker.');
    expect(reduced).not.toContain('window.analytics');
    expect(reduced).not.toContain('padding:2px');
    expect(reduced).not.toContain('<section>');
    expect(reduced.length).toBeLessThan(raw.length / 4);
  });
});
