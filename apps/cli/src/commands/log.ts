import { describeCallArguments as describeArguments, type QuiverEvent, visibleText } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { CliError, color, printJson, printLine } from '../output.js';

const time = (ms: number | undefined) =>
  ms === undefined ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

interface LogOptions {
  session?: string;
  limit: string;
  follow?: boolean;
  json?: boolean;
}

type LoggedCall = Awaited<ReturnType<Quiver['host']['eventLog']['sessionCalls']>>[number];
/** What this command reads of a session log (the SQLite file, or the shared PostgreSQL one). */
interface SessionLog {
  recentSessions(limit: number): Promise<Array<{ id: string }>> | Array<{ id: string }>;
  sessionCalls(sessionId: string): Promise<LoggedCall[]> | LoggedCall[];
}

function callLine(call: LoggedCall): string {
  const status =
    call.status === 'ok'
      ? color.green('ok')
      : call.status === 'running'
        ? color.yellow('running')
        : call.status === 'interrupted'
          ? color.yellow('interrupted')
          : color.red(call.code ?? 'error');
  return `${time(call.startedAt ?? call.completedAt)}  ${call.toolName.padEnd(18)} ${status}${call.durationMs !== undefined ? color.dim(` ${call.durationMs} ms`) : ''}  ${color.dim(describeArguments(call.args).slice(0, 80))}`;
}

/** A session id, or a prefix of exactly one (as git takes a commit's). */
async function sessionById(log: SessionLog, id: string, where: string): Promise<string> {
  const known = (await log.recentSessions(10_000)).map((session) => session.id);
  if (known.includes(id)) return id;
  const matching = known.filter((candidate) => candidate.startsWith(id));
  if (matching.length === 1) return matching[0] as string;
  if (matching.length > 1)
    throw new CliError(
      `"${id}" is the start of ${matching.length} sessions in ${where}: ${matching.slice(0, 5).join(', ')}${matching.length > 5 ? ', …' : ''}.`,
      'Give more characters of the id.',
    );
  throw new CliError(`No session "${id}" in ${where}.`, 'Run `quiver log` to list the recent sessions.');
}

const FOLLOW_INTERVAL_MS = 300;

/** Estimated tokens of a session: its results, summed, and its definitions as last assembled. */
function tokenLine(usage: { resultTokens: number; definitionTokens: number | undefined }): string {
  const definitions =
    usage.definitionTokens === undefined ? '' : `, definitions ~${usage.definitionTokens} tokens`;
  return `results ~${usage.resultTokens} tokens${definitions}`;
}

/** The same figures as a session summary, from one session's logged events. */
function sessionTokens(events: readonly QuiverEvent[]): {
  resultTokens: number;
  definitionTokens: number | undefined;
} {
  let resultTokens = 0;
  let definitionTokens: number | undefined;
  for (const event of events) {
    if (event.type === 'tool.execution_complete') resultTokens += event.resultTokens ?? 0;
    if (event.type === 'session.tools_updated' && event.definitionTokens !== undefined)
      definitionTokens = event.definitionTokens;
  }
  return { resultTokens, definitionTokens };
}

/** Prints a session's calls as they are logged, and each again when it finishes, until interrupted. */
async function follow(log: SessionLog, options: LogOptions, where: string): Promise<void> {
  let session = options.session ? await sessionById(log, options.session, where) : undefined;
  const printed = new Map<string, string>();
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (!options.json)
      printLine(color.dim(session ? `Following session ${session}…` : `Waiting for a session in ${where}…`));
    while (!stopped) {
      session ??= (await log.recentSessions(1))[0]?.id;
      if (session !== undefined) {
        for (const call of await log.sessionCalls(session)) {
          if (printed.get(call.callId) === call.status) continue;
          printed.set(call.callId, call.status);
          if (options.json) printJson({ ...call });
          else printLine(callLine(call));
        }
      }
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS));
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export function registerLogCommand(program: Command): void {
  program
    .command('log')
    .description(
      'Recent sessions and their calls, from the durable session log (in the data directory, or in PostgreSQL when quiver.yaml keeps state there).',
    )
    .option('-s, --session <id>', "one session's calls, events and file-edit metrics")
    .option('-l, --limit <n>', 'how many recent sessions', '20')
    .option(
      '-f, --follow',
      "print a session's calls as they are logged, until interrupted (the latest session without --session)",
    )
    .option('--json', 'machine-readable output (with --follow: one JSON object per call, per line)')
    .action(async (options: LogOptions, command: Command) => {
      const quiver = await openQuiver(globalOptions(command));
      // Every replica's sessions when they share PostgreSQL; else this host's SQLite file.
      const shared = quiver.host.options.sharedStorage?.eventLog;
      const log = shared ?? quiver.host.eventLog;
      const where = shared ? 'the PostgreSQL session log' : quiver.host.dataDir;
      try {
        if (options.follow) {
          await follow(log, options, where);
          return;
        }
        if (options.session) options.session = await sessionById(log, options.session, where);
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
              tokenLine(session),
            ]
              .filter(Boolean)
              .join(', ');
            printLine(
              `${color.bold(session.id)}  ${time(session.lastActivityAt)}  ${session.personalityId ?? ''} ${session.agent ?? ''}${session.caller === undefined ? '' : `  caller ${visibleText(session.caller)}`}  ${session.calls} calls${flags ? `, ${flags}` : ''}`,
            );
          }
          return;
        }
        const calls = await log.sessionCalls(options.session);
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
        for (const call of calls) printLine(callLine(call));
        printLine(color.dim(tokenLine(sessionTokens(events))));
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
