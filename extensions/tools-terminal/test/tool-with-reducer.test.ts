import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolResult } from '@quiver/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TerminalRunData, terminalReducer, terminalTool } from '../src/index.js';
import { createContext, createWorkspace, type TestWorkspace } from './context.js';

const tsc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../node_modules/.bin/tsc');
const textOf = (result: ToolResult) => (result.ok ? result.value : result.error);

let workspace: TestWorkspace;
beforeEach(async () => {
  workspace = await createWorkspace();
});
afterEach(async () => {
  await workspace.cleanup();
});

describe('terminal with its reducer', () => {
  it('keeps a compiler error from the middle of an output too long for the result', async () => {
    // 1,499 times the same error, and on line 750 (past the window's head and tail) a different one.
    const lines = Array.from({ length: 1500 }, (_, index) =>
      index === 749
        ? `export const value${index}: string = 750;`
        : `export const value${index}: number = 'text';`,
    );
    await writeFile(path.join(workspace.root, 'many.ts'), `${lines.join('\n')}\n`);
    const { ctx } = await createContext(workspace);
    const command = `${tsc} --noEmit --skipLibCheck --pretty false many.ts`;
    const result = await Promise.resolve(terminalTool.execute({ command }, ctx));
    const data = result.structured as TerminalRunData;
    expect(result).toMatchObject({ ok: false, code: 'execution_failed' });
    expect(data.truncated).toBe(true);
    expect(textOf(result)).not.toContain('many.ts(750,14)');

    const reduced = terminalReducer.reduce(result, { toolName: 'terminal', args: { command } });
    expect(reduced).toMatchObject({ ok: false, code: 'execution_failed', structured: data });
    expect(textOf(reduced)).toContain('error TS2322: Type … is not assignable to type …. (1500×)');
    expect(textOf(reduced)).toContain(
      "many.ts(750,14): error TS2322: Type 'number' is not assignable to type 'string'.",
    );
    expect(textOf(reduced).length).toBeLessThan(textOf(result).length);
  });
});
