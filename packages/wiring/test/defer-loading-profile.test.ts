import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ok } from '@quiver/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

/** About 600 estimated tokens each: 30 of them are over the default 12,000-token threshold. */
const externalTools = Array.from({ length: 30 }, (_, index) => ({
  name: `client_${index}`,
  description: `Client tool client_${index}. ${'Looks things up. '.repeat(140)}`,
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  execute: () => ok('done'),
}));

describe('deferred loading as docs/concepts.md describes it', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-defer-profile-')));
    writeFileSync(path.join(workspace, 'quiver.yaml'), 'defaultPersonality: plain\n');
    mkdirSync(path.join(workspace, 'personalities'));
    writeFileSync(path.join(workspace, 'personalities/plain.yaml'), 'id: plain\nplugins: [tools-code]\n');
    writeFileSync(
      path.join(workspace, 'personalities/no-defer.yaml'),
      'id: no-defer\nplugins: [tools-code]\nmodelProfiles:\n  claude:\n    supportsDeferLoading: false\n',
    );
    quiver = await createQuiver({ workspace, trustProject: true });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  const sentNames = (rendered: { tools: unknown[] }) =>
    rendered.tools.map((tool) => (tool as { name: string }).name);

  it('defers above about 12,000 estimated tokens for every model, behind tool_search', () => {
    for (const model of ['claude-sonnet-4-5', 'gpt-5', undefined]) {
      const pool = quiver.createSession({ externalTools, ...(model ? { model } : {}) }).pool();
      expect(pool.definitions.find((d) => d.name === 'client_0')?.deferLoading).toBe(true);
      expect(pool.definitions.map((d) => d.name)).toContain('tool_search');
    }
  });

  it('sends deferred tools with defer_loading to a model whose profile supports it, and omits them for one whose profile does not', () => {
    const supported = quiver.createSession({ externalTools, model: 'claude-sonnet-4-5' }).render();
    expect(sentNames(supported)).toContain('client_0');
    expect(supported.tools.find((tool) => (tool as { name: string }).name === 'client_0')).toMatchObject({
      defer_loading: true,
    });
    const unsupported = quiver
      .createSession({ personality: 'no-defer', externalTools, model: 'claude-sonnet-4-5' })
      .render();
    expect(sentNames(unsupported)).not.toContain('client_0');
    expect(sentNames(unsupported)).toContain('tool_search');
  });
});
