import type { SessionAgentKind } from '@quiver/runtime';
import type { QuiverEvent, ToolResult } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import type { Command } from 'commander';
import { loadPluginHost, loadRuntime, openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { terminalClientRelay } from '../interactive/elicitation-prompt.js';
import { showLiveOutput } from '../interactive/live-output.js';
import { interactiveResolver } from '../interactive/permission-prompt.js';
import { CliError, color, EXIT, parseJsonArgs, printError, printJson, printLine } from '../output.js';
import { onSessionRelayEvents } from '../session-relay-events.js';

interface CallOptions {
  args?: string;
  personality?: string;
  json?: boolean;
  events?: boolean;
  model?: string;
  session?: string;
  agent?: string;
  customAgent?: string;
}

export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description('Run one tool call through the full lifecycle (gates, permissions, hooks, reducer, budget).')
    .argument('<tool>', 'tool name (aliases such as Read or Bash work too)')
    .option('-a, --args <json>', 'arguments as a JSON object', '{}')
    .option('-p, --personality <name|path>', 'personality to run under')
    .option('--model <name>', 'model name; picks the model profile')
    .option('--agent <kind>', 'run as this agent context: main | subagent | async | teammate | coordinator')
    .option('--custom-agent <name>', "run as a custom agent from the personality's agents")
    .option(
      '-s, --session <id>',
      'run in (or resume) this session id; calls a killed run left unfinished are marked interrupted',
    )
    .option('--events', 'print lifecycle events as JSON lines on stderr')
    .option('--json', 'print the whole result as JSON')
    .action(async (tool: string, options: CallOptions, command: Command) => {
      const args = parseJsonArgs(options.args);
      const agent = options.agent === undefined ? undefined : await agentKind(options.agent);
      // Only the first-party plugins that can provide the tool load; the others' tools stay known
      // by their declarations, so rules and names written for them read as when every plugin loads.
      const quiver = await openQuiver(globalOptions(command), options, { onlyTools: [tool] });
      const resolver = interactiveResolver();
      const session = quiver.createSession({
        ...(options.personality ? { personality: options.personality } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(agent ? { agent } : {}),
        ...(options.customAgent ? { customAgent: options.customAgent } : {}),
        ...(resolver ? { permissionResolver: resolver } : {}),
        ...(options.session ? { sessionId: options.session } : {}),
        clientRelay: terminalClientRelay(),
      });
      // One call's events; the session's first tool list (session.tools_updated) is not one of them.
      const printEvent = (event: QuiverEvent) => {
        if (event.type !== 'session.tools_updated') printError(JSON.stringify(event));
      };
      const unsubscribeRelay = options.events
        ? onSessionRelayEvents(quiver.host.events, session.id, printEvent)
        : undefined;
      const unsubscribe = options.events
        ? session.events.subscribe(printEvent)
        : options.json
          ? undefined
          : showLiveOutput(session.events);
      const controller = new AbortController();
      // The handlers stay installed until the session is closed, which waits for the command's kill
      // step (SIGTERM, grace, SIGKILL of its whole tree): exiting sooner would leave the tree running.
      const onSignal = (signal: NodeJS.Signals) => controller.abort(new Error(`interrupted (${signal})`));
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      // A closed terminal (SSH gone, window closed) sends SIGHUP: stop the same way, cleaning up.
      process.on('SIGHUP', onSignal);
      try {
        const [executed] = await session.execute([{ name: tool, args }], { signal: controller.signal });
        const result = executed && (await withLoadFailure(quiver, tool, executed, options.personality));
        // Events are delivered on microtasks; let them drain before printing and exiting.
        await new Promise((resolve) => setImmediate(resolve));
        if (!result) return;
        if (options.json) printJson(result);
        else if (result.ok) printLine(result.value);
        else printError(`${color.red(`${tool} failed [${result.code}]`)} ${result.error}`);
        if (!result.ok) process.exitCode = EXIT.toolFailed;
      } finally {
        unsubscribe?.();
        unsubscribeRelay?.();
        await quiver.close();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        process.off('SIGHUP', onSignal);
      }
    });
}

/** The agent kind `--agent` names; an unknown one is a usage error with the closest kind. */
async function agentKind(requested: string): Promise<SessionAgentKind> {
  const { AGENT_TOOL_POLICIES } = await loadRuntime();
  const kinds = Object.keys(AGENT_TOOL_POLICIES) as SessionAgentKind[];
  if ((kinds as string[]).includes(requested)) return requested as SessionAgentKind;
  const { didYouMean } = await loadPluginHost();
  const suggestion = didYouMean(requested, kinds);
  throw new CliError(
    `Unknown agent "${requested}".`,
    `${suggestion ? `Did you mean "${suggestion}"? ` : ''}Use one of: ${kinds.join(', ')}.`,
  );
}

/** A tool missing because its plugin failed to load says so, with the plugin's error and fix. */
async function withLoadFailure(
  quiver: Quiver,
  tool: string,
  result: ToolResult,
  personality: string | undefined,
): Promise<ToolResult> {
  if (result.ok || result.code !== 'not_available') return result;
  const { failed } = quiver.host.plugins();
  if (failed.length === 0) return result;
  const { explainMissingTool } = await loadPluginHost();
  const enabled = quiver.host.personality(personality ?? quiver.defaultPersonality).plugins;
  const explanation = explainMissingTool(tool, failed, enabled);
  return explanation ? { ...result, error: `${result.error} ${explanation}` } : result;
}
