import { pathToFileURL } from 'node:url';
import {
  controlAttempts,
  createRaceArena,
  type RaceAttempt,
  type RaceTally,
  runAttempts,
  startSwapper,
  toolAttempts,
} from '@quiver/test-utils/confinement-race';
import { findSystemTool } from '@quiver/test-utils/system-tools';
import {
  applyPatchTool,
  createGrepSearchTool,
  editFileTool,
  fileSearchTool,
  listDirTool,
  readFileTool,
  writeFileTool,
} from '@quiver/tools-code';
import { systemToolsPresent } from './not-run.js';

/**
 * The confinement race: 1,000 attempts per file tool while a Python process exchanges a workspace
 * directory with a symlink to a directory outside it (renameat2 RENAME_EXCHANGE) in a tight loop.
 * The baseline, in the same run and the same arena, is a control that checks a name with the same
 * resolver and then opens it by name: it must escape, or the race did not happen. Reported as
 * counts: escapes, completed inside, refused; the tools must show 0 escapes.
 */
const ATTEMPTS = 1000;

function line(tally: RaceTally): string {
  return `  ${tally.name.padEnd(22)} ${String(tally.escapes).padStart(5)} escapes  ${String(tally.succeeded).padStart(5)} inside  ${String(tally.refused).padStart(5)} refused  of ${tally.attempts}`;
}

export async function run(): Promise<void> {
  console.log('\n## confinement race (renameat2 exchange of a workspace directory and a link outside)');
  if (!systemToolsPresent('confinement race', ['python3'])) return;
  const arena = await createRaceArena();
  const swapper = await startSwapper(arena);
  const tallies: RaceTally[] = [];
  try {
    const attempts: Record<string, RaceAttempt> = {
      ...controlAttempts(arena),
      ...toolAttempts(arena, {
        readFile: readFileTool,
        writeFile: writeFileTool,
        editFile: editFileTool,
        applyPatch: applyPatchTool,
        listDir: listDirTool,
        fileSearch: fileSearchTool,
        grepSearch: createGrepSearchTool({ engine: 'javascript' }),
      }),
    };
    if (findSystemTool('rg') !== undefined) {
      const ripgrep = toolAttempts(arena, {
        readFile: readFileTool,
        writeFile: writeFileTool,
        editFile: editFileTool,
        applyPatch: applyPatchTool,
        listDir: listDirTool,
        fileSearch: fileSearchTool,
        grepSearch: createGrepSearchTool({ engine: 'ripgrep' }),
      }).grep_search;
      if (ripgrep) attempts['grep_search (ripgrep)'] = ripgrep;
    }
    for (const [name, attempt] of Object.entries(attempts)) {
      const tally = await runAttempts(name, ATTEMPTS, attempt);
      tallies.push(tally);
      console.log(line(tally));
    }
  } finally {
    const swaps = await swapper.stop();
    await arena.cleanup();
    console.log(`  exchanges made by the swapper: ${swaps}`);
  }
  const control = tallies.filter((tally) => tally.name.endsWith('by name'));
  const tools = tallies.filter((tally) => !tally.name.endsWith('by name'));
  const controlEscapes = control.reduce((sum, tally) => sum + tally.escapes, 0);
  const toolEscapes = tools.reduce((sum, tally) => sum + tally.escapes, 0);
  console.log(
    `  tools: ${toolEscapes} escapes in ${tools.length * ATTEMPTS} attempts; control: ${controlEscapes} escapes in ${control.length * ATTEMPTS} attempts${controlEscapes === 0 ? ' (the race did not happen: rerun)' : ''}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
