import type { Quiver } from '@quiver/wiring';
import { loadPluginHost } from './context.js';

type ServerStatus = ReturnType<NonNullable<Quiver['mcpCatalog']>['serverStatus']>[number];

/** An MCP server that is configured but cannot give tools, said so a person can fix it. */
export interface McpServerProblem {
  server: string;
  state: 'invalid' | 'failed';
  /** Where it is written (`file:line:column`) and what is wrong. */
  message: string;
  fix: string;
  /** For a server that started and ended: its exit code, or the signal that ended it. */
  exit?: { code: number | null; signal: string | null };
  /** The last lines the server wrote to stderr before it failed. */
  stderrTail?: string[];
}

/** The state of every configured server (empty when the bridge is not loaded). */
export function mcpServerStatus(quiver: Quiver): ServerStatus[] {
  return quiver.mcpCatalog?.serverStatus() ?? [];
}

/**
 * The servers among `servers` (default: all) whose entry is broken, or which were started and
 * failed: their command was not found, or they exited before answering. With `personality`, also
 * each server that personality enables but no settings file defines (a misspelt name).
 */
export async function mcpServerProblems(
  quiver: Quiver,
  servers?: readonly string[],
  personality?: string,
): Promise<McpServerProblem[]> {
  const { configKeyLocation, didYouMean } = await loadPluginHost();
  const configured = quiver.host.options.config.mcpServers as Record<string, Record<string, unknown>>;
  const problems: McpServerProblem[] = [];
  if (personality !== undefined) {
    const found = quiver.host.personality(personality);
    const file = found.sources.find((source) => !source.startsWith('embedded:'));
    for (const server of Object.keys(found.mcpServers)) {
      if (Object.hasOwn(configured, server)) continue;
      const where = file ? `${configKeyLocation(file, ['mcpServers', server])}: ` : '';
      const suggestion = didYouMean(server, Object.keys(configured));
      problems.push({
        server,
        state: 'invalid',
        message: `${where}personality "${found.id}" enables the MCP server "${server}", which no settings file defines.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
        fix: suggestion
          ? `Rename "${server}" to "${suggestion}" under mcpServers${file ? ` in ${file}` : ''}.`
          : `Define it with \`quiver mcp add ${server} -- COMMAND ARGS…\`, or remove it from the personality's mcpServers.`,
      });
    }
  }
  for (const status of mcpServerStatus(quiver)) {
    if (servers !== undefined && !servers.includes(status.server)) continue;
    if (status.state === 'invalid') {
      const keyPath = ['mcpServers', status.server, ...(status.configProblem?.keyPath ?? [])];
      const where = quiver.configFile ? `${configKeyLocation(quiver.configFile, keyPath)}: ` : '';
      const unknownKey = status.configProblem?.unknownKey;
      const suggestion = unknownKey ? didYouMean(unknownKey, status.configProblem?.allowed ?? []) : undefined;
      problems.push({
        server: status.server,
        state: 'invalid',
        message: `${where}${status.lastError ?? 'invalid entry'}${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
        fix: suggestion
          ? `Rename "${unknownKey}" to "${suggestion}" under mcpServers.${status.server}; the other servers are not affected.`
          : `Correct mcpServers.${status.server}${quiver.configFile ? ` in ${quiver.configFile}` : ''} (\`quiver mcp get ${status.server}\` shows it).`,
      });
      continue;
    }
    // A server that failed and is being tried again (the bridge retries after 0.5 s, doubling) is
    // still a failed server: reading the status during that retry must not drop it.
    const retrying = status.state === 'connecting' && status.attempt > 0;
    if ((status.state !== 'down' && !retrying) || status.lastError === undefined) continue;
    const command = configured[status.server]?.command;
    const notFound = /\bENOENT\b/.test(status.lastError);
    problems.push({
      server: status.server,
      state: 'failed',
      message: notFound
        ? `MCP server "${status.server}" did not start: its command ${JSON.stringify(command)} was not found (${status.lastError}).`
        : `MCP server "${status.server}" failed: ${status.lastError}.`,
      fix: notFound
        ? `Install ${JSON.stringify(command)} or give its full path in mcpServers.${status.server}.command.`
        : `Run the server's command by hand to see why it stops, then correct mcpServers.${status.server}.`,
      ...(status.exit ? { exit: status.exit } : {}),
      ...(status.stderrTail ? { stderrTail: status.stderrTail } : {}),
    });
  }
  return problems;
}
