import { describeCallArguments as describeArguments } from '@quiver/types';
import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { CliError, color, printJson, printLine } from '../output.js';

const time = (ms: number | undefined) =>
  ms === undefined ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

export function registerLogCommand(program: Command): void {
  program
    .command('log')
    .description(
      'Recent sessions and their calls, from the durable session log (in the data directory, or in PostgreSQL when quiver.yaml keeps state there).',
    )
    .option('-s, --session <id>', "one session's calls, events and file-edit metrics")
    .option('-l, --limit <n>', 'how many recent sessions', '20')
    .option('--json', 'machine-readable output')
    .action(async (options: { session?: string; limit: string; json?: boolean }, command: Command) => {
      const quiver = await openQuiver(globalOptions(command));
      // Every replica's sessions when they share PostgreSQL; else this host's SQLite file.
      const shared = quiver.host.options.sharedStorage?.eventLog;
      const log = shared ?? quiver.host.eventLog;
      const where = shared ? 'the PostgreSQL session log' : quiver.host.dataDir;
      try {
        if (!options.session) {
          const sessions = await log.recentSessions(Number(options.limit) || 20);
          if (options.json) return printJson({ sessions, fileEdits: await log.fileEditMetrics() });
          if (sessions.length === 0) printLine(color.dim(`No sessions logged yet in ${where}.`));
          for (const session of sessions) {
            const flags = [
              session.failedCalls ? color.red(`${session.failedCalls} failed`) : '',
              session.interruptedCalls ? color.yellow(`${session.interruptedCalls} interrupted`) : '',
              session.lostEvents
                ? color.yellow(`${session.lostEvents} events not recorded (gap in the log)`)
                : '',
            ]
              .filter(Boolean)
              .join(', ');
            printLine(
              `${color.bold(session.id)}  ${time(session.lastActivityAt)}  ${session.personalityId ?? ''} ${session.agent ?? ''}  ${session.calls} calls${flags ? `, ${flags}` : ''}`,
            );
          }
          return;
        }
        const calls = await log.sessionCalls(options.session);
        if (calls.length === 0 && !(await log.recentSessions(10_000)).some((s) => s.id === options.session)) {
          throw new CliError(
            `No session "${options.session}" in ${where}.`,
            'Run `quiver log` to list the recent sessions.',
          );
        }
        const fileEdits = await log.fileEditMetrics(options.session);
        const events = await log.sessionEvents(options.session);
        // Events the log could not write (a full disk, a read-only or lost database), as recorded once it could.
        const gaps = events.filter((event) => event.type === 'session.warning' && event.code === 'log_gap');
        if (options.json)
          return printJson({
            session: options.session,
            calls,
            fileEdits,
            events,
            gaps: gaps.map((gap) => ({
              at: gap.timestamp,
              lostEvents: (gap as { lostEvents?: number }).lostEvents,
              message: 'message' in gap ? gap.message : '',
            })),
          });
        for (const gap of gaps)
          printLine(
            color.yellow(`${time(gap.timestamp)}  gap in the log: ${'message' in gap ? gap.message : ''}`),
          );
        for (const call of calls) {
          const status =
            call.status === 'ok'
              ? color.green('ok')
              : call.status === 'running'
                ? color.yellow('running')
                : call.status === 'interrupted'
                  ? color.yellow('interrupted')
                  : color.red(call.code ?? 'error');
          printLine(
            `${time(call.startedAt ?? call.completedAt)}  ${call.toolName.padEnd(18)} ${status}${call.durationMs !== undefined ? color.dim(` ${call.durationMs} ms`) : ''}  ${color.dim(describeArguments(call.args).slice(0, 80))}`,
          );
        }
        printLine(
          color.dim(
            `files changed: ${fileEdits.filesChanged ?? 0}, +${fileEdits.linesAdded ?? 0} −${fileEdits.linesRemoved ?? 0}`,
          ),
        );
      } finally {
        await quiver.close();
      }
    });
}
