import type { ProviderFormat, SessionAgentKind } from '@quiver/runtime';
import type { Command } from 'commander';
import { loadRuntime, openQuiver } from '../context.js';
import { globalOptions } from '../global-options.js';
import { mcpServerProblems } from '../mcp-server-problems.js';
import { CliError, color, EXIT, printError, printJson, printLine } from '../output.js';

const AGENTS: SessionAgentKind[] = ['main', 'subagent', 'async', 'teammate', 'coordinator'];
const FORMATS: ProviderFormat[] = ['anthropic', 'openai', 'gemini', 'mcp'];

interface ToolsOptions {
  personality?: string;
  agent: SessionAgentKind;
  customAgent?: string;
  format?: ProviderFormat;
  model?: string;
  explain?: string;
  json?: boolean;
}

export function registerToolsCommand(program: Command): void {
  program
    .command('tools')
    .description('List the tools the model would see, in order, with a token estimate.')
    .option('-p, --personality <name|path>', 'personality to assemble for')
    .option('--agent <kind>', `agent context: ${AGENTS.join(' | ')}`, 'main')
    .option('--custom-agent <name>', "a custom agent from the personality's agents")
    .option('--format <format>', `render definitions in a provider format: ${FORMATS.join(' | ')}`)
    .option('--model <name>', 'model name; picks the model profile (edit tools, deferred loading)')
    .option(
      '--explain <tool>',
      'say which assembly stage removed a tool, and the rule or setting that did it',
    )
    .option('--json', 'machine-readable output')
    .action(async (options: ToolsOptions, command: Command) => {
      if (!AGENTS.includes(options.agent)) {
        throw new CliError(`Unknown agent "${options.agent}".`, `Use one of: ${AGENTS.join(', ')}.`);
      }
      if (options.format && !FORMATS.includes(options.format)) {
        throw new CliError(`Unknown format "${options.format}".`, `Use one of: ${FORMATS.join(', ')}.`);
      }
      // Without mcpServers the bridge has nothing to list: it is not imported.
      const quiver = await openQuiver(globalOptions(command), options, { mcpBridge: 'when-configured' });
      const { estimateTokens, explainTool } = await loadRuntime();
      try {
        const session = quiver.createSession({
          ...(options.personality ? { personality: options.personality } : {}),
          agent: options.agent,
          ...(options.customAgent ? { customAgent: options.customAgent } : {}),
          ...(options.model ? { model: options.model } : {}),
        });
        // The bubblewrap probe behind the sandbox notice (a child process) runs while the session
        // gets ready; it never rejects.
        const sandboxNoticeReady = quiver.sandboxNotice();
        // The listing includes each enabled MCP server that connects within its connect timeout.
        await session.ready();
        const pool = session.pool();
        const sandboxNotice = await sandboxNoticeReady;
        // A server whose entry is broken, or which failed to start, leaves its tools out: say so, and fail.
        const problems = await mcpServerProblems(
          quiver,
          undefined,
          options.personality ?? quiver.defaultPersonality,
        );
        if (problems.length > 0)
          process.exitCode = problems.some((problem) => problem.state === 'invalid')
            ? EXIT.usage
            : EXIT.toolFailed;
        if (options.explain) {
          const explained = explainTool(pool, options.explain);
          const problem = pool.executables.has(options.explain)
            ? undefined
            : problems.find((candidate) => options.explain?.startsWith(`mcp__${candidate.server}__`));
          const stderrTail = problem?.stderrTail?.length
            ? `\nlast stderr lines:\n${problem.stderrTail.map((line) => `  ${line}`).join('\n')}`
            : '';
          const message = problem
            ? `"${options.explain}" is not available: ${problem.message}${stderrTail}\nfix: ${problem.fix}`
            : explained;
          const removed = pool.removed.get(options.explain);
          if (options.json) {
            printJson({
              tool: options.explain,
              available: pool.executables.has(options.explain),
              ...(removed ?? {}),
              message,
              ...(problem ? { mcpServerProblem: problem } : {}),
            });
          } else printLine(message);
          return;
        }
        const tokens = estimateTokens(pool.definitions);
        if (options.format) {
          const rendered = session.render(options.format);
          printJson(
            options.json
              ? { format: options.format, tokens, tools: rendered.tools, nameMap: rendered.nameMap }
              : rendered.tools,
          );
          return;
        }
        if (options.json) {
          printJson({
            personality: options.personality ?? quiver.defaultPersonality,
            profile: pool.profile.id,
            signature: pool.signature,
            tokens,
            count: pool.definitions.length,
            tools: pool.definitions,
            diagnostics: pool.diagnostics,
            mcpServerProblems: problems,
            ...(sandboxNotice ? { sandboxNotice } : {}),
          });
          return;
        }
        for (const definition of pool.definitions) {
          const firstLine = definition.description.split('\n')[0] ?? '';
          printLine(
            `${color.bold(definition.name)}${definition.deferLoading ? color.dim(' (deferred)') : ''}  ${color.dim(firstLine.slice(0, 100))}`,
          );
        }
        printLine();
        printLine(
          color.dim(
            `${pool.definitions.length} tools · ~${tokens} tokens · profile ${pool.profile.id} · signature ${pool.signature.slice(0, 12)}`,
          ),
        );
        for (const diagnostic of pool.diagnostics)
          printLine(color.yellow(`${diagnostic.level}: ${diagnostic.message}`));
        if (sandboxNotice) printLine(color.yellow(`warning: ${sandboxNotice}`));
        for (const problem of problems) {
          printError(color.red(`error: ${problem.message}`));
          printError(`  fix: ${problem.fix}`);
        }
      } finally {
        await quiver.close();
      }
    });
}
