import { didYouMean } from '@quiver/core';
import { QuiverError } from '@quiver/types';

/**
 * Every key createQuiver reads. test/option-keys.test-d.ts makes a new option fail to compile
 * until it is listed here (this module does not import createQuiver's, which imports it).
 */
export const OPTION_KEYS = {
  workspace: true,
  dataDir: true,
  config: true,
  configPath: true,
  personality: true,
  logger: true,
  plugins: true,
  env: true,
  discoverConfig: true,
  trustProject: true,
  sessionLogWriter: true,
  onlyTools: true,
  mcpBridge: true,
} as const;

const SESSION_LOG_WRITERS = ['thread', 'calling-thread'];
const MCP_BRIDGE_LOADING = ['always', 'when-configured'];

/** A misspelt option (`configFile`, `trustProjects`) would be ignored without a word: refuse it. */
export function checkCreateQuiverOptions(options: object): void {
  const writer = (options as { sessionLogWriter?: unknown }).sessionLogWriter;
  if (writer !== undefined && !SESSION_LOG_WRITERS.includes(writer as string))
    throw new QuiverError(
      'usage',
      `createQuiver: sessionLogWriter must be "thread" or "calling-thread", not ${JSON.stringify(writer)}.`,
      {
        fix: 'Leave it out for the writer thread (a host serving many calls), or pass "calling-thread" for a process that runs a call or two and ends.',
      },
    );
  const onlyTools = (options as { onlyTools?: unknown }).onlyTools;
  if (
    onlyTools !== undefined &&
    (!Array.isArray(onlyTools) ||
      onlyTools.length === 0 ||
      !onlyTools.every((tool) => typeof tool === 'string' && tool.length > 0))
  )
    throw new QuiverError(
      'usage',
      `createQuiver: onlyTools must be a non-empty array of tool names, not ${JSON.stringify(onlyTools)}.`,
      {
        fix: 'Pass the names of the tools this instance will run, e.g. ["read_file"], or leave it out to load every plugin.',
      },
    );
  const bridge = (options as { mcpBridge?: unknown }).mcpBridge;
  if (bridge !== undefined && !MCP_BRIDGE_LOADING.includes(bridge as string))
    throw new QuiverError(
      'usage',
      `createQuiver: mcpBridge must be "always" or "when-configured", not ${JSON.stringify(bridge)}.`,
      {
        fix: 'Leave it out to load the MCP bridge always, or pass "when-configured" to load it only when mcpServers names a server.',
      },
    );
  const known = Object.keys(OPTION_KEYS);
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  const first = unknown[0];
  if (first === undefined) return;
  const suggestion = didYouMean(first, known);
  throw new QuiverError(
    'usage',
    `createQuiver: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')}.`,
    {
      fix: suggestion
        ? `Did you mean "${suggestion}"? The options are: ${known.join(', ')}.`
        : `The options are: ${known.join(', ')}.`,
      details: { unknown },
    },
  );
}
