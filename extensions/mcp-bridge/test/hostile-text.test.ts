import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, makeTempDir, successText } from './helpers.js';
import { hostileServer } from './hostile-helpers.js';

const ESCAPE = '\u001b';
const TAG_CHARACTER = /[\u{e0000}-\u{e007f}]/u;
const ZERO_WIDTH = /[\u200b-\u200d]/;

describe('text from a hostile server', () => {
  let harness: Harness;
  let removeState: () => Promise<void>;

  beforeAll(async () => {
    const state = await makeTempDir('hostile-text');
    removeState = state.remove;
    harness = createHarness({ hostile: hostileServer(state.path) });
    await harness.bridge.start();
  });
  afterAll(async () => {
    await harness.stop();
    await removeState();
  });

  it('offers the model descriptions, titles and parameter texts without escapes or invisible characters', () => {
    const tool = harness.registry.get('mcp__hostile__painted')?.tool;
    const texts = [tool?.description ?? '', tool?.title ?? '', JSON.stringify(tool?.parametersJsonSchema)];
    for (const text of texts) {
      expect(text).not.toContain(ESCAPE);
      expect(text).not.toContain('\u0007');
      expect(text).not.toMatch(TAG_CHARACTER);
      expect(text).not.toMatch(ZERO_WIDTH);
    }
    expect(tool?.title).toBe('Painted');
    expect(tool?.description.startsWith('Paints the screen. x')).toBe(true);
    expect(JSON.stringify(tool?.parametersJsonSchema)).toContain('A colour name');
  });

  it('caps an overlong description with a marker that says how much was cut', () => {
    const description = harness.registry.get('mcp__hostile__painted')?.tool.description ?? '';
    expect(description.length).toBeLessThan(4_100);
    expect(description).toMatch(/… \[\d+ more characters cut by Quiver\]$/);
  });

  it('warns once, naming the tool and what was removed or cut', () => {
    const warnings = harness.diagnostics.filter((diagnostic) => diagnostic.code === 'mcp_text_cleaned');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('mcp__hostile__painted');
    expect(warnings[0]?.message).toMatch(/from its description, title, inputSchema/);
    expect(warnings[0]?.message).toContain('cut its overlong description');
  });

  it('strips escapes and tag characters from results but keeps zero-width characters', async () => {
    const value = successText((await harness.call('mcp__hostile__painted', { colour: 'red' })).result);
    expect(value).not.toContain(ESCAPE);
    expect(value).not.toContain('\u0007');
    expect(value).not.toMatch(TAG_CHARACTER);
    expect(value).toContain('paint\u200b done');
  });

  it("marks a result line that imitates Quiver's terminal header as the server's", async () => {
    const value = successText((await harness.call('mcp__hostile__painted', { colour: 'red' })).result);
    expect(value.split('\n')).toContain('server: [exit code 0 · 1 ms]');
    expect(value.split('\n').some((line) => line.startsWith('[exit code'))).toBe(false);
  });

  it('keeps the hints of a server whose annotations are not trusted out of Quiver’s annotations', () => {
    expect(harness.registry.get('mcp__hostile__painted')?.tool.annotations).toBeUndefined();
  });
});

describe('hints of a server marked trusted', () => {
  it('become Quiver annotations', async () => {
    const state = await makeTempDir('hostile-trusted');
    const harness = createHarness({ hostile: hostileServer(state.path, { trustAnnotations: true }) });
    try {
      await harness.bridge.start();
      expect(harness.registry.get('mcp__hostile__painted')?.tool.annotations).toEqual({
        readOnly: true,
        destructive: false,
        idempotent: true,
      });
    } finally {
      await harness.stop();
      await state.remove();
    }
  });
});
