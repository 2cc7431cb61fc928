import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { type McpServerProblem, mcpServerProblems, mcpServerStatus } from '../mcp-server-problems.js';
import { CliError, color, EXIT, printJson, printLine } from '../output.js';
import {
  editSettingsFile,
  parseScope,
  projectSettingsFiles,
  refuseInsideQuiverTools,
  scopeFile,
  WRITABLE_SCOPES,
} from '../settings-files.js';

interface AddOptions {
  scope?: string;
  env: string[];
  header: string[];
  url?: string;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `K=V` pairs of --env and --header. */
function pairs(values: readonly string[], flag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at <= 0)
      throw new CliError(
        `${flag} ${JSON.stringify(value)} is not NAME=VALUE.`,
        `Write it as ${flag} NAME=VALUE.`,
      );
    result[value.slice(0, at)] = value.slice(at + 1);
  }
  return result;
}

/** One configured server as the settings files define it. */
interface DefinedServer {
  server: string;
  scope: string;
  file: string;
  entry: Record<string, unknown>;
}

async function definedServers(command: Command): Promise<DefinedServer[]> {
  const { parseDocument } = await import('yaml');
  const servers: DefinedServer[] = [];
  for (const { scope, file, exists } of await projectSettingsFiles(globalOptions(command))) {
    if (!exists) continue;
    const data = parseDocument(readFileSync(file, 'utf8')).toJS() as {
      mcpServers?: Record<string, unknown>;
    } | null;
    for (const [server, entry] of Object.entries(data?.mcpServers ?? {}))
      servers.push({ server, scope, file, entry: (entry ?? {}) as Record<string, unknown> });
  }
  return servers;
}

/** Checks a settings file's text before it is written: the layer's schema, then every server entry. */
async function checkSettingsText(scope: string, file: string, text: string): Promise<void> {
  const { parseDocument } = await import('yaml');
  const { parseConfig, personSettingsSchema } = await import('@quiver/plugin-host');
  const { readMcpServersConfig } = await import('@quiver/wiring');
  const data = (parseDocument(text).toJS() ?? {}) as Record<string, unknown>;
  if (scope === 'user') {
    const parsed = personSettingsSchema.safeParse(data);
    if (!parsed.success)
      throw new CliError(`${file} would not be valid: ${parsed.error.message}`, 'Nothing was written.');
  } else parseConfig(data, file);
  const { invalid } = readMcpServersConfig((data.mcpServers ?? {}) as Record<string, unknown>);
  const first = invalid[0];
  if (first) throw new CliError(`${first.message} Nothing was written to ${file}.`, first.error.fix);
}

type State =
  | 'connected'
  | 'failed'
  | 'invalid'
  | 'not enabled'
  | 'waits for trust'
  | 'not trusted'
  | 'disabled'
  | 'connecting';

interface ServerReport extends DefinedServer {
  state: State;
  problem?: McpServerProblem;
  tools: number;
  /** Changed tool definitions waiting for `quiver mcp review`. */
  pendingReview: number;
  /** The MCP revision spoken with a connected server. */
  protocolVersion?: string;
}

/** Every defined server with its state: the default personality's servers are started to see. */
async function serverReports(command: Command, names?: readonly string[]): Promise<ServerReport[]> {
  const defined = (await definedServers(command)).filter(
    (entry) => names === undefined || names.includes(entry.server),
  );
  const quiver = await openQuiver(globalOptions(command), {}, { quiet: true });
  try {
    const session = quiver.createSession({});
    await session.ready();
    const statuses = new Map(mcpServerStatus(quiver).map((status) => [status.server, status]));
    const problems = new Map((await mcpServerProblems(quiver)).map((problem) => [problem.server, problem]));
    const effective = quiver.host.options.config.mcpServers as Record<string, unknown>;
    const pins = await quiver.host.trustStorage.readPins().catch(() => undefined);
    const { pendingDefinitionChanges } = await import('./pending-definition-changes.js');
    const pending = pins ? pendingDefinitionChanges(pins) : [];
    // What the default personality enables as found on disk, before trust narrows it.
    const foundServers = Object.keys(
      quiver.trust.current.personalities[quiver.defaultPersonality]?.mcpServers ?? {},
    );
    const waitsForTrust = (server: string) =>
      quiver.trust.state !== 'trusted' && foundServers.includes(server);
    // The strongest layer defining a server is the one in effect.
    const seen = new Set<string>();
    return defined.map((entry): ServerReport => {
      const inEffect =
        !seen.has(entry.server) && JSON.stringify(effective[entry.server]) === JSON.stringify(entry.entry);
      seen.add(entry.server);
      const status = statuses.get(entry.server);
      const problem = inEffect ? problems.get(entry.server) : undefined;
      const state: State = !inEffect
        ? 'not trusted'
        : problem
          ? problem.state
          : status?.state === 'connected'
            ? 'connected'
            : status?.state === 'disabled'
              ? 'disabled'
              : status?.state === 'connecting'
                ? 'connecting'
                : waitsForTrust(entry.server)
                  ? 'waits for trust'
                  : 'not enabled';
      return {
        ...entry,
        state,
        ...(problem ? { problem } : {}),
        tools: inEffect ? (status?.tools.length ?? 0) : 0,
        pendingReview: pending.filter((change) => change.server === entry.server).length,
        ...(inEffect && status?.protocolVersion ? { protocolVersion: status.protocolVersion } : {}),
      };
    });
  } finally {
    await quiver.close();
  }
}

function describe(report: ServerReport): string {
  const what =
    'url' in report.entry
      ? String(report.entry.url)
      : [report.entry.command, ...((report.entry.args as string[]) ?? [])].join(' ');
  const state =
    report.state === 'connected'
      ? color.green(`connected, ${report.tools} tools`)
      : report.state === 'failed' || report.state === 'invalid'
        ? color.red(report.state)
        : report.state === 'waits for trust'
          ? color.yellow(
              'not started: the default personality enables it in a change that waits for `quiver trust`',
            )
          : color.yellow(report.state);
  const review =
    report.pendingReview > 0
      ? color.yellow(` · ${report.pendingReview} changed tools wait for \`quiver mcp review\``)
      : '';
  return `${color.bold(report.server)}  ${color.dim(`[${report.scope}]`)} ${what}  ${state}${review}`;
}

/** A failed server's message, its last stderr lines and the fix, indented. */
function problemLines(problem: McpServerProblem, indent: string): string {
  const stderr = problem.stderrTail?.length
    ? [`${indent}last stderr lines:`, ...problem.stderrTail.map((line) => `${indent}  ${line}`)]
    : [];
  return [`${indent}${problem.message}`, ...stderr, `${indent}fix: ${problem.fix}`].join('\n');
}

export function registerMcpServerCommands(mcp: Command): void {
  mcp
    .command('add')
    .description(
      'Add an MCP server to a settings file: `quiver mcp add NAME -- COMMAND ARGS…` for stdio, `--url URL` for HTTP. Checked before it is written.',
    )
    .argument('<name>', 'the server name (letters, digits, "-", single "_")')
    .argument('[command...]', 'the command and its arguments, after --')
    .option(
      '--scope <scope>',
      `where to write it: ${WRITABLE_SCOPES.join(' | ')} (local: quiver.local.yaml, yours, not committed)`,
      'local',
    )
    .option('--env <NAME=VALUE>', 'an environment variable of the server (repeatable)', collect, [])
    .option('--url <url>', 'a remote server over HTTP instead of a command')
    .option('--header <NAME=VALUE>', 'an HTTP header of a remote server (repeatable)', collect, [])
    .option('--json', 'machine-readable output')
    .action(async (name: string, commandLine: string[], options: AddOptions, command: Command) => {
      refuseInsideQuiverTools('quiver mcp add');
      const scope = parseScope(options.scope, 'local');
      if ((options.url === undefined) === (commandLine.length === 0))
        throw new CliError(
          options.url
            ? 'Give either --url or a command, not both.'
            : 'Give the command that starts the server, after --, or --url for a remote one.',
          'e.g. `quiver mcp add everything -- npx -y @modelcontextprotocol/server-everything stdio`, or `quiver mcp add docs --url https://example.com/mcp`.',
        );
      const entry: Record<string, unknown> = options.url
        ? {
            url: options.url,
            ...(options.header.length ? { headers: pairs(options.header, '--header') } : {}),
          }
        : {
            command: commandLine[0],
            ...(commandLine.length > 1 ? { args: commandLine.slice(1) } : {}),
            ...(options.env.length ? { env: pairs(options.env, '--env') } : {}),
          };
      const file = await scopeFile(globalOptions(command), scope);
      await editSettingsFile(
        file,
        (document) => {
          if (document.hasIn(['mcpServers', name]))
            throw new CliError(
              `${file} already defines the MCP server "${name}"; nothing was changed.`,
              `Remove it first with \`quiver mcp remove ${name} --scope ${scope}\`, or pick another name.`,
            );
          document.setIn(['mcpServers', name], entry);
        },
        (next) => checkSettingsText(scope, file, next),
      );
      if (options.json) {
        printJson({ server: name, scope, file, entry });
        return;
      }
      printLine(`${color.green('added')} MCP server ${name} to ${file} (${scope})`);
      printLine(
        color.dim(
          `A personality enables it with \`mcpServers: { ${name}: true }\`${scope === 'user' ? '' : '; the project configuration waits for `quiver trust` until you trust the change'}.`,
        ),
      );
    });
  mcp
    .command('list')
    .description(
      'List the MCP servers of every settings layer with their state (started, failed and why, pending review).',
    )
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) => {
      const reports = await serverReports(command);
      if (options.json) {
        printJson({ servers: reports });
        return;
      }
      if (reports.length === 0) {
        printLine('No MCP servers are configured. Add one with `quiver mcp add NAME -- COMMAND ARGS…`.');
        return;
      }
      for (const report of reports) {
        printLine(describe(report));
        if (report.problem) printLine(color.dim(problemLines(report.problem, '    ')));
      }
    });
  mcp
    .command('get')
    .description('Show one MCP server: where it is defined, its settings and its state.')
    .argument('<name>', 'the server name')
    .option('--json', 'machine-readable output')
    .action(async (name: string, options: { json?: boolean }, command: Command) => {
      const reports = await serverReports(command, [name]);
      if (reports.length === 0) {
        const known = (await definedServers(command)).map((entry) => entry.server);
        const { didYouMean } = await import('@quiver/plugin-host');
        const suggestion = didYouMean(name, known);
        throw new CliError(
          `No settings file defines the MCP server "${name}".`,
          suggestion
            ? `Did you mean "${suggestion}"?`
            : known.length
              ? `The servers are: ${known.join(', ')}.`
              : 'Add one with `quiver mcp add`.',
          EXIT.usage,
          'mcp_server_unknown',
        );
      }
      if (options.json) {
        printJson({ server: name, definitions: reports });
        return;
      }
      for (const report of reports) {
        printLine(describe(report));
        printLine(color.dim(`  defined in ${report.file}`));
        printLine(
          JSON.stringify(report.entry, null, 2)
            .split('\n')
            .map((line) => `  ${line}`)
            .join('\n'),
        );
        if (report.problem) printLine(problemLines(report.problem, '  '));
      }
    });
  mcp
    .command('remove')
    .description('Remove an MCP server from the settings file that defines it.')
    .argument('<name>', 'the server name')
    .option('--scope <scope>', `which file, when more than one defines it: ${WRITABLE_SCOPES.join(' | ')}`)
    .option('--json', 'machine-readable output')
    .action(async (name: string, options: { scope?: string; json?: boolean }, command: Command) => {
      const defined = (await definedServers(command)).filter(
        (entry) => entry.server === name && entry.scope !== 'managed',
      );
      const scope = options.scope === undefined ? undefined : parseScope(options.scope, 'local');
      const matching = scope ? defined.filter((entry) => entry.scope === scope) : defined;
      if (matching.length === 0)
        throw new CliError(
          `No ${scope ? `${scope} ` : ''}settings file defines the MCP server "${name}"; nothing was changed.`,
          '`quiver mcp list` shows the servers and where each is defined.',
        );
      if (matching.length > 1)
        throw new CliError(
          `"${name}" is defined in ${matching.map((entry) => `${entry.file} (${entry.scope})`).join(' and ')}.`,
          `Say which with --scope ${matching.map((entry) => entry.scope).join(' or ')}.`,
        );
      const target = matching[0] as DefinedServer;
      await editSettingsFile(
        target.file,
        (document) => {
          document.deleteIn(['mcpServers', name]);
          const rest = document.get('mcpServers') as { items?: unknown[] } | undefined;
          if (rest?.items?.length === 0) document.delete('mcpServers');
        },
        (next) => checkSettingsText(target.scope, target.file, next),
      );
      if (options.json) printJson({ server: name, scope: target.scope, file: target.file, removed: true });
      else printLine(`${color.green('removed')} MCP server ${name} from ${target.file} (${target.scope})`);
    });
}
