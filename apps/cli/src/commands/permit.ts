import type { ShellSubjectDecision } from '@quiver/permissions';
import type { PermissionDecision } from '@quiver/types';
import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { color, parseJsonArgs, printJson, printLine } from '../output.js';

const paint = (behavior: string) =>
  (behavior === 'allow' ? color.green : behavior === 'deny' ? color.red : color.yellow)(behavior);

/** Command text is data: control characters (a `\v` hiding a second command) are shown as escapes. */
function visible(text: string): string {
  return /[\u0000-\u001f\u007f-\u009f]/.test(text) ? JSON.stringify(text) : text;
}

export function registerPermitCommand(program: Command): void {
  program
    .command('permit')
    .description(
      'Show the permission decision for a call: allow, ask or deny, the rule that matched, and each parsed shell subcommand.',
    )
    .argument('<tool>', 'tool name')
    .option('-a, --args <json>', 'the call arguments', '{}')
    .option('-p, --personality <name|path>', 'personality whose rules apply')
    .option('--json', 'machine-readable output')
    .action(
      async (
        tool: string,
        options: { args: string; personality?: string; json?: boolean },
        command: Command,
      ) => {
        const args = parseJsonArgs(options.args);
        const quiver = await openQuiver(globalOptions(command), options);
        try {
          const { PermissionEngine } = await import('@quiver/permissions');
          const { openSqliteProjectGrants } = await import('@quiver/runtime');
          const session = quiver.createSession(
            options.personality ? { personality: options.personality } : {},
          );
          await session.ready({ tools: [tool] });
          const pool = session.pool();
          const entry = pool.executables.get(tool);
          // With PostgreSQL storage the grants every replica shares decide, not a local file.
          const shared = quiver.host.options.sharedStorage?.projectGrants;
          const { sqlite } = quiver.host.options;
          const projectGrants =
            shared ??
            (sqlite === undefined ? undefined : openSqliteProjectGrants(quiver.host.dataDir, sqlite));
          const engine = new PermissionEngine({
            workspace: quiver.host.workspace,
            layers: [quiver.host.policy(options.personality).permissions],
            ...(projectGrants ? { projectGrants } : {}),
            protectedPaths: quiver.host.protectedPaths,
          });
          const decision: PermissionDecision = await engine.decide({
            toolName: tool,
            args,
            ...(entry?.tool.permission ? { spec: entry.tool.permission } : {}),
            ...(entry?.mcpServer ? { mcpServer: entry.mcpServer } : {}),
          });
          if (projectGrants !== shared) await projectGrants?.close();
          const inPool = Boolean(entry);
          if (options.json) {
            printJson({ tool, inPool, ...decision });
            return;
          }
          printLine(
            `${paint(decision.behavior)}  ${tool}${decision.rule ? color.dim(`  rule: ${decision.rule}`) : ''}`,
          );
          printLine(`  ${visible(decision.reason)}`);
          for (const subject of (decision.subjects ?? []) as ShellSubjectDecision[]) {
            printLine(
              `  ${paint(subject.behavior).padEnd(5)}  ${visible(subject.subject)}${subject.rule ? color.dim(`  (${subject.rule})`) : ''}${subject.behavior !== 'allow' ? color.dim(` — ${visible(subject.reason)}`) : ''}`,
            );
            if (subject.behavior !== 'ask') continue;
            if (subject.construct)
              printLine(
                color.dim(
                  `         construct: ${subject.construct.name}, characters ${subject.construct.start}–${subject.construct.end} of the command`,
                ),
              );
            if (subject.suggestedRule)
              printLine(color.dim(`         allowed by: ${visible(subject.suggestedRule)}`));
          }
          if (decision.behavior === 'ask' && decision.suggestedRule)
            printLine(
              color.dim(`  to allow it: add ${JSON.stringify(decision.suggestedRule)} to permissions.allow`),
            );
          if (!inPool)
            printLine(
              color.yellow(
                `  note: ${tool} is not in this personality's pool; \`quiver tools --explain ${tool}\` says why.`,
              ),
            );
        } finally {
          await quiver.close();
        }
      },
    );
}
