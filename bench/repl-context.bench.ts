import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolResult } from '@quiver/types';
import { createQuiver } from '@quiver/wiring';

/**
 * Context a model spends on one task — find a marker in ten 20 KB source files and name the
 * lines — with ten direct read_file calls against one repl call that reads and greps in its
 * script. Tokens are estimated as characters / 4 (the estimate `quiver tools` prints), counting
 * the results the model reads and the definitions it is shown.
 */

const MARKER = 'QUIVER_MARKER_bench';
const MARKED_LINES = new Map([
  [2, 118],
  [5, 42],
  [9, 187],
]);

const SCRIPT = `
const found = [];
for (let i = 0; i < 10; i++) {
  const { text } = await tools.read_file({ path: 'src/file-' + i + '.ts' });
  for (const line of text.split('\\n')) {
    const numbered = line.match(/^\\s*(\\d+)\\t(.*)$/);
    if (numbered && numbered[2].includes('${MARKER}')) found.push('src/file-' + i + '.ts:' + numbered[1]);
  }
}
found`;

const tokens = (chars: number) => Math.round(chars / 4);
const textOf = (result: ToolResult | undefined) => (result?.ok ? result.value : `${result?.error}`);

export async function run(): Promise<void> {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'quiver-repl-bench-')));
  try {
    mkdirSync(join(workspace, 'src'));
    for (let index = 0; index < 10; index++) {
      const lines = [...Array(200).keys()].map((offset) =>
        MARKED_LINES.get(index) === offset + 1
          ? `export const flag = '${MARKER}';`
          : `export function helper${index}_${offset}(value: number, scale: number): number { return value * scale + ${offset}; }`,
      );
      writeFileSync(join(workspace, `src/file-${index}.ts`), `${lines.join('\n')}\n`);
    }
    writeFileSync(join(workspace, 'quiver.yaml'), 'defaultPersonality: scripted\n');
    mkdirSync(join(workspace, 'personalities'));
    writeFileSync(
      join(workspace, 'personalities/scripted.yaml'),
      'id: scripted\nplugins: [tools-code, tools-terminal, tools-repl]\nrepl: true\npermissions:\n  allow: [repl, read_file]\n',
    );
    writeFileSync(
      join(workspace, 'personalities/direct.yaml'),
      'id: direct\nplugins: [tools-code, tools-terminal]\npermissions:\n  allow: [read_file]\n',
    );
    const quiver = await createQuiver({ workspace, trustProject: true });
    try {
      const direct = quiver.createSession({ personality: 'direct' });
      const scripted = quiver.createSession({ personality: 'scripted' });
      let directResultChars = 0;
      for (let index = 0; index < 10; index++) {
        const [read] = await direct.execute([{ name: 'read_file', args: { path: `src/file-${index}.ts` } }]);
        directResultChars += textOf(read).length;
      }
      const started = performance.now();
      const [answer] = await scripted.execute([{ name: 'repl', args: { code: SCRIPT } }]);
      const replMs = performance.now() - started;
      if (!answer?.ok) throw new Error(`the repl call failed: ${textOf(answer)}`);
      const definitionChars = (pool: ReturnType<typeof direct.pool>) =>
        JSON.stringify(
          pool.definitions.map(({ name, description, parameters }) => ({ name, description, parameters })),
        ).length;
      const rows = [
        {
          way: 'ten direct read_file calls',
          calls: 10,
          resultTokens: tokens(directResultChars),
          definitionTokens: tokens(definitionChars(direct.pool())),
        },
        {
          way: 'one repl call (REPL mode)',
          calls: 1,
          resultTokens: tokens(textOf(answer).length),
          definitionTokens: tokens(definitionChars(scripted.pool())),
        },
      ];
      console.table(rows);
      const [directRow, replRow] = rows as [(typeof rows)[0], (typeof rows)[0]];
      console.log(
        `repl result: ${textOf(answer).replace(/\s+/g, ' ')} (${Math.round(replMs)} ms); result tokens ${replRow.resultTokens} vs ${directRow.resultTokens} (${(directRow.resultTokens / Math.max(replRow.resultTokens, 1)).toFixed(0)}× fewer)`,
      );
      await direct.close();
      await scripted.close();
    } finally {
      await quiver.close();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
