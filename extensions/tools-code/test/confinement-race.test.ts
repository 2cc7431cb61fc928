import { describeWithSystemTools } from '@quiver/test-utils';
import {
  controlAttempts,
  createRaceArena,
  type RaceArena,
  type RaceTally,
  runAttempts,
  type Swapper,
  startSwapper,
  toolAttempts,
} from '@quiver/test-utils/confinement-race';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyPatchTool } from '../src/tools/apply-patch.js';
import { editFileTool } from '../src/tools/edit-file.js';
import { fileSearchTool } from '../src/tools/file-search.js';
import { createGrepSearchTool } from '../src/tools/grep-search.js';
import { listDirTool } from '../src/tools/list-dir.js';
import { readFileTool } from '../src/tools/read-file.js';
import { writeFileTool } from '../src/tools/write-file.js';

const ATTEMPTS = 150;
/**
 * The control is retried in rounds until it escapes, for up to this long: a quiet machine
 * cannot make it pass vacuously, and a loaded one, where the swapper runs seldom, gets more rounds.
 */
const CONTROL_BUDGET_MS = 150_000;

describeWithSystemTools(['python3'])('confinement under a directory-swap race', () => {
  let arena: RaceArena;
  let swapper: Swapper;
  const tallies: RaceTally[] = [];

  beforeAll(async () => {
    arena = await createRaceArena();
    swapper = await startSwapper(arena);
  });
  afterAll(async () => {
    const swaps = await swapper?.stop();
    console.log(
      `swaps ${swaps}; ${tallies.map((tally) => `${tally.name}: ${tally.escapes} escapes, ${tally.succeeded} inside, ${tally.refused} refused of ${tally.attempts}`).join('; ')}`,
    );
    await arena?.cleanup();
  });

  it(
    'lets the check-then-open-by-name control escape, so the race is real',
    async () => {
      const control = controlAttempts(arena);
      for (const [name, attempt] of Object.entries(control)) {
        let escapes = 0;
        const deadline = Date.now() + CONTROL_BUDGET_MS / 2;
        for (let round = 0; escapes === 0 && Date.now() < deadline; round += 1) {
          const tally = await runAttempts(name, ATTEMPTS, (index) => attempt(round * ATTEMPTS + index));
          tallies.push(tally);
          escapes += tally.escapes;
        }
        expect({ name, escaped: escapes > 0 }).toEqual({ name, escaped: true });
      }
    },
    CONTROL_BUDGET_MS + 60_000,
  );

  it('never lets read_file, write_file, edit_file, apply_patch, list_dir, file_search or grep_search reach outside while the swap runs', async () => {
    const attempts = toolAttempts(arena, {
      readFile: readFileTool,
      writeFile: writeFileTool,
      editFile: editFileTool,
      applyPatch: applyPatchTool,
      listDir: listDirTool,
      fileSearch: fileSearchTool,
      grepSearch: createGrepSearchTool({ engine: 'javascript' }),
    });
    for (const [name, attempt] of Object.entries(attempts)) {
      const tally = await runAttempts(name, ATTEMPTS, attempt);
      tallies.push(tally);
      expect({ name, escapes: tally.escapes }).toEqual({ name, escapes: 0 });
    }
  }, 120_000);
});
