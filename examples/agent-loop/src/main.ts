import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PermissionResolver } from '@quiver/types';
import { createQuiver } from '@quiver/wiring';
import { runAgentLoop } from './agent-loop.js';
import { scriptedPermissionResolver, terminalPermissionResolver } from './permission-prompts.js';
import { ScriptedModelStandIn } from './scripted-model-stand-in.js';

export const DEMO_TASK =
  'Tidy up this project: tick off what is done in the notes and clean the stale build output.';

/** A small project for the demo to work on: notes with a TODO and a stale build directory. */
export async function prepareDemoWorkspace(directory: string): Promise<void> {
  await writeFile(
    path.join(directory, 'NOTES.md'),
    '# Notes\n\n- TODO: write the release notes\n- Ship 0.2 after the notes are written\n',
  );
  await mkdir(path.join(directory, 'build'), { recursive: true });
  await writeFile(path.join(directory, 'build', 'bundle.js'), 'console.log("stale");\n');
}

export interface MainOptions {
  argv?: readonly string[];
  print?: (line: string) => void;
  /** Answer prompts on the terminal; default: when stdin is a TTY. */
  interactive?: boolean;
}

/** Runs the demo; `--workspace DIR` works on DIR (it must contain a markdown file with a `TODO:` line). */
export async function main(options: MainOptions = {}): Promise<string> {
  const argv = options.argv ?? process.argv.slice(2);
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const flag = argv.indexOf('--workspace');
  let workspace = flag >= 0 ? argv[flag + 1] : undefined;
  if (workspace === undefined) {
    workspace = await mkdtemp(path.join(tmpdir(), 'quiver-agent-loop-'));
    await prepareDemoWorkspace(workspace);
  }
  print(`workspace: ${workspace}`);

  const interactive = options.interactive ?? process.stdin.isTTY === true;
  const permissionResolver: PermissionResolver = interactive
    ? terminalPermissionResolver(process.stdin, process.stdout)
    : scriptedPermissionResolver(
        () => ({ behavior: 'deny', reason: 'The scripted user does not allow deleting files.' }),
        print,
      );

  const quiver = await createQuiver({ workspace });
  const session = quiver.createSession({ permissionResolver, model: 'claude-sonnet-4-5' });
  try {
    print(
      `tools offered to the model: ${session
        .pool()
        .definitions.map((definition) => definition.name)
        .join(', ')}`,
    );
    print(`user: ${DEMO_TASK}`);
    const outcome = await runAgentLoop({
      session,
      model: new ScriptedModelStandIn(),
      task: DEMO_TASK,
      print,
    });
    print(`finished after ${outcome.turns} model calls`);
    print(
      `NOTES.md now reads:\n${await readFile(path.join(workspace, 'NOTES.md'), 'utf8').catch(() => '(no NOTES.md)')}`,
    );
    return workspace;
  } finally {
    await session.close();
    await quiver.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
