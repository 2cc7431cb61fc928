import type { PermissionDecision, PermissionSubjectDecision } from '@quiver/types';
import { normalizeCommandText } from './command-rule.js';
import type { ShellAnalysis, ShellCommandAnalysis } from './shell/shell-analysis.js';
import { COMMAND_RUNNERS, isWrapperName } from './shell/wrappers.js';
import { NO_RULE_ALLOWS } from './subjects.js';

/** Programs whose second word is usually a target, not a subcommand: only the exact command is suggested. */
const EXACT_ONLY_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'dd',
  'shred',
  'mkfs',
  'chmod',
  'chown',
  'kill',
  'pkill',
  'killall',
  'truncate',
  'mv',
]);
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Programs that run whatever code or command their arguments (or the workspace) name: shells,
 * interpreters, script runners and Quiver itself. "Always allow commands that start with …" is
 * never offered for them (with the wrappers and command runners of shell/wrappers.ts): a prefix
 * such as `node x:*` or `npm run:*` would allow any code a tool can write.
 */
const NO_PREFIX_PROGRAMS = new Set([
  ...['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'busybox'],
  ...[
    'node',
    'nodejs',
    'deno',
    'bun',
    'python',
    'python2',
    'python3',
    'perl',
    'ruby',
    'php',
    'lua',
    'Rscript',
    'java',
    'tclsh',
    'osascript',
  ],
  ...[
    'npm',
    'npx',
    'pnpm',
    'pnpx',
    'yarn',
    'corepack',
    'uv',
    'uvx',
    'pipx',
    'poetry',
    'make',
    'just',
    'task',
    'cargo',
    'go',
    'tsx',
    'ts-node',
  ],
  ...[
    'env',
    'xargs',
    'exec',
    'eval',
    'command',
    'builtin',
    'sudo',
    'doas',
    'su',
    'nice',
    'nohup',
    'timeout',
    'time',
    'stdbuf',
    'setsid',
    'watch',
    'find',
  ],
  'quiver',
]);

/**
 * For a shell ask: `tool(first two words:*)` when one simple command is all that needs
 * approval and its second word reads like a subcommand, else the exact command.
 */
export function suggestShellRule(
  toolName: string,
  command: string,
  analysis: ShellAnalysis,
  subjects: PermissionSubjectDecision[],
): string {
  const exact = `${toolName}(${normalizeCommandText(command)})`;
  const asked = subjects.filter((subject) => subject.behavior === 'ask');
  // Only a command that merely lacks an allow rule can be allowed by a prefix rule; path and
  // safety asks are lifted only by granting the exact command.
  if (
    asked.length !== 1 ||
    analysis.unsafe.length > 0 ||
    analysis.unproven.length > 0 ||
    asked[0]?.reason !== NO_RULE_ALLOWS
  )
    return exact;
  const entry = analysis.commands.find(
    (candidate) =>
      candidate.argv.length > 0 &&
      (candidate.text === asked[0]?.subject || candidate.argv.join(' ') === asked[0]?.subject),
  );
  return (entry && suggestCommandRule(toolName, entry)) ?? exact;
}

/**
 * `tool(program subcommand:*)` for one simple command that only lacks an allow rule, or the rule
 * for its exact argv; undefined when only the exact whole command can be allowed.
 */
export function suggestCommandRule(toolName: string, entry: ShellCommandAnalysis): string | undefined {
  // Programs fed extra arguments (`xargs`, `find -exec`) are only covered by the exact whole command.
  if (entry.opaqueArguments.length > 0 || entry.appendsArguments) return undefined;
  const [program, second] = entry.argv;
  if (
    program === undefined ||
    !PLAIN_WORD.test(program) ||
    program.includes('/') ||
    EXACT_ONLY_PROGRAMS.has(program)
  )
    return undefined;
  if (NO_PREFIX_PROGRAMS.has(program) || isWrapperName(program) || COMMAND_RUNNERS.has(program))
    return `${toolName}(${entry.argv.map(quoteWord).join(' ')})`;
  if (second !== undefined && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(second))
    return `${toolName}(${program} ${second}:*)`;
  return `${toolName}(${entry.argv.map(quoteWord).join(' ')})`;
}

function quoteWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`;
}

/**
 * The decision a headless session returns instead of asking: a deny whose message names the
 * rule that would allow the call.
 */
export function headlessDenial(
  toolName: string,
  subject: string,
  decision: PermissionDecision,
): PermissionDecision {
  if (decision.behavior !== 'ask') return decision;
  const hint = decision.suggestedRule
    ? ` To allow it, add "${decision.suggestedRule}" to permissions.allow in the personality.`
    : ` To allow it, add a rule for ${toolName} to permissions.allow in the personality.`;
  // A call whose subject could not be read says why: the rule it suggests may already be there.
  // So does a subcommand asked for a reason no rule lifts (planted state, a path outside the workspace).
  const reasons = (decision.subjects ?? [])
    .filter(
      (entry) =>
        entry.behavior === 'ask' && !entry.reason.startsWith('no rule allows') && entry.rule === undefined,
    )
    .map((entry) => entry.reason);
  const why =
    reasons.length > 0
      ? ` (${[...new Set(reasons)].join('; ')})`
      : decision.subjects === undefined &&
          decision.rule === undefined &&
          !decision.reason.startsWith('no rule allows')
        ? ` (${decision.reason})`
        : '';
  return {
    ...decision,
    behavior: 'deny',
    reason: `Permission to run ${toolName} was denied: "${subject}" needs approval${why} and this session is headless.${hint}`,
  };
}
