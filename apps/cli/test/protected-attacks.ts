import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Quiver } from '@quiver/wiring';

/** The line every existing protected file gets, so edits and patches have something to change. */
export const SHARED_LINE = '# shared line';

/**
 * Files no call may change: `existing` ones are created (or extended) by `prepareTargets`,
 * `new` ones must stay absent.
 */
export interface ProtectedTarget {
  path: string;
  existing: boolean;
}

/** `lnk -> sub/deep`, nested repositories, a data-directory file, and an ordinary source file. */
export function prepareTargets(workspace: string, targets: readonly ProtectedTarget[]): void {
  mkdirSync(path.join(workspace, 'sub', 'deep'), { recursive: true });
  symlinkSync('sub/deep', path.join(workspace, 'lnk'));
  writeFileSync(path.join(workspace, 'src.txt'), `${SHARED_LINE}\nsource\n`);
  for (const target of targets) {
    if (!target.existing) continue;
    const absolute = path.join(workspace, target.path);
    mkdirSync(path.dirname(absolute), { recursive: true });
    const before = existsSync(absolute) ? readFileSync(absolute, 'utf8') : '';
    writeFileSync(absolute, `${before}${SHARED_LINE}\n`);
  }
}

/** The ways a model can write the same path; each but `~` reaches `target` as the kernel resolves it. */
const PATH_FORMS: ReadonlyArray<(target: string, workspace: string) => string> = [
  (target) => target,
  (target) => `./${target}`,
  (target, workspace) => `${workspace}/${target}`,
  (target) => `lnk/../../${target}`,
  (target) => `sub/deep/../../${target}`,
  (target, workspace) => `${workspace}/lnk/../../${target}`,
  (target) => `~/../${target}`,
];

const envelope = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

type Attack = { tool: string; args: Record<string, unknown>; readFirst?: string };

function fileAttacks(written: string, existing: boolean): Attack[] {
  const attacks: Attack[] = [
    { tool: 'write_file', args: { path: written, content: 'pwned: true\n' }, readFirst: written },
    {
      tool: 'apply_patch',
      args: {
        patch: envelope(`*** Update File: src.txt\n*** Move to: ${written}\n@@\n-${SHARED_LINE}\n+moved`),
      },
    },
    {
      tool: 'apply_patch',
      args: {
        patch: `diff --git a/src.txt b/${written}\nsimilarity index 100%\nrename from src.txt\nrename to ${written}\n`,
      },
    },
  ];
  if (!existing) {
    attacks.push(
      { tool: 'apply_patch', args: { patch: envelope(`*** Add File: ${written}\n+pwned: true`) } },
      {
        tool: 'apply_patch',
        args: { patch: `--- /dev/null\n+++ b/${written}\n@@ -0,0 +1 @@\n+pwned: true\n` },
      },
    );
    return attacks;
  }
  attacks.push(
    { tool: 'edit_file', args: { path: written, old_string: SHARED_LINE, new_string: 'pwned: true' } },
    {
      tool: 'multi_edit',
      args: { path: written, edits: [{ old_string: SHARED_LINE, new_string: 'pwned: true' }] },
    },
    {
      tool: 'apply_patch',
      args: { patch: envelope(`*** Update File: ${written}\n@@\n-${SHARED_LINE}\n+pwned`) },
    },
    { tool: 'apply_patch', args: { patch: envelope(`*** Delete File: ${written}`) } },
    {
      tool: 'apply_patch',
      args: {
        patch: envelope(`*** Update File: ${written}\n*** Move to: moved.txt\n@@\n-${SHARED_LINE}\n+moved`),
      },
    },
    {
      tool: 'apply_patch',
      args: { patch: `--- a/${written}\n+++ b/${written}\n@@ -1 +1 @@\n-${SHARED_LINE}\n+pwned\n` },
    },
  );
  return attacks;
}

/** Shell commands whose write targets the analysis reports (redirections) or that name the target. */
function shellAttacks(written: string): Attack[] {
  return [
    `echo 'pwned: true' > ${written}`,
    `echo 'pwned: true' >> ${written}`,
    `tee ${written} < src.txt`,
    `cp src.txt ${written}`,
    `sed -i s/shared/pwned/ ${written}`,
    `mv src.txt ${written}`,
  ].map((command) => ({ tool: 'terminal', args: { command } }));
}

function state(workspace: string, targets: readonly ProtectedTarget[]): string[] {
  return [...targets.map((target) => target.path), 'src.txt'].map((relative) => {
    const absolute = path.join(workspace, relative);
    return `${relative}: ${existsSync(absolute) ? readFileSync(absolute, 'utf8') : '(absent)'}`;
  });
}

/**
 * Tries every attack through a session that allows every write tool and the shell outright
 * (a session permission layer over the personality), so only deny rules and protection can stop
 * it. Returns the attacks that changed a target or succeeded.
 */
export async function attackProtectedTargets(
  quiver: Quiver,
  workspace: string,
  targets: readonly ProtectedTarget[],
  { shell = true }: { shell?: boolean } = {},
): Promise<string[]> {
  const escapes: string[] = [];
  const expected = state(workspace, targets);
  for (const target of targets) {
    for (const form of PATH_FORMS) {
      const written = form(target.path, workspace);
      // bash expands `~` to the home directory, outside the workspace: no shell attack through it.
      const viaShell = shell && !written.startsWith('~');
      const attacks = [...fileAttacks(written, target.existing), ...(viaShell ? shellAttacks(written) : [])];
      for (const attack of attacks) {
        const session = quiver.createSession({
          permissions: {
            allow: ['read_file', 'write_file', 'edit_file', 'multi_edit', 'apply_patch', 'terminal'],
          },
        });
        try {
          if (attack.readFirst)
            await session.execute([{ name: 'read_file', args: { path: attack.readFirst } }]);
          const [result] = await session.execute([{ name: attack.tool, args: attack.args }]);
          const now = state(workspace, targets);
          const changed = now.filter((line, index) => line !== expected[index]);
          if (result?.ok || changed.length > 0)
            escapes.push(
              `${attack.tool} ${JSON.stringify(attack.args)} → ${result?.ok ? 'ok' : 'failed'}; changed ${changed.join(' | ')}`,
            );
        } finally {
          await session.close();
        }
      }
    }
  }
  return escapes;
}
