import type { CodePins, ProjectInspection, TrustStorage } from '@quiver/plugin-host';
import type { CreateQuiverOptions } from '@quiver/wiring';
import type { Command } from 'commander';
import { loadPluginHost, quiverOptions } from '../context.js';
import { globalOptions } from '../global-options.js';
import { noPersonTerminal } from '../interactive/person-terminal.js';
import { launchEnvironment } from '../launch/launch-environment.js';
import { CliError, color, EXIT, printJson, printLine } from '../output.js';
import { refuseInsideQuiverTools } from '../settings-files.js';

interface TrustOptions {
  personality?: string;
  json?: boolean;
}

export function registerTrustCommand(program: Command): void {
  program
    .command('trust')
    .description(
      "Show what the project's configuration would start and allow, and trust it after a person confirms at a terminal.",
    )
    .option('-p, --personality <name|path>', 'also trust this personality (a path outside personalities/)')
    .option('--json', 'print what would be trusted as JSON and change nothing')
    .action(async (options: TrustOptions, command: Command) => {
      if (!options.json) refuseInsideQuiverTools('quiver trust');
      const review = await openTrustReview({
        ...quiverOptions({ ...globalOptions(command), trustProject: false }, options),
        env: launchEnvironment() as NodeJS.ProcessEnv,
      });
      try {
        await reviewAndTrust(review, options);
      } finally {
        await review.trustStorage.close();
      }
    });
}

/** What `quiver trust` (and the console's trust page) shows a person, with what trusting records. */
export interface TrustReview {
  inspection: ProjectInspection;
  trustStorage: TrustStorage;
  /** Pinned before anyone is shown anything: what the person is shown is what gets recorded. */
  code: CodePins;
  pinned: Array<{ kind: string; name: string; location: string | null; files: number }>;
  /** The configuration in words, as `describeProjectConfiguration` gives it. */
  description: string[];
}

/**
 * The project configuration these options load, compared with the record (never with
 * --trust-project), and the code it would pin. Close `trustStorage` when done.
 */
export async function openTrustReview(createOptions: CreateQuiverOptions): Promise<TrustReview> {
  const host = await loadPluginHost();
  const { openQuiverProjectTrust, DEFAULT_PERSONALITY } = await import('@quiver/wiring');
  const { inspection, trustStorage } = await openQuiverProjectTrust({
    ...createOptions,
    trustProject: false,
  });
  try {
    const code = host.pinTrustedCode(inspection.configuration.config, {
      workspace: inspection.workspace,
      configFile: inspection.configFile,
      cache: trustStorage.record()?.code,
    });
    const pinned = [
      ...Object.entries(code.plugins).map(([ref, pin]) => ({ kind: 'plugin', name: ref, pin })),
      ...Object.entries(code.servers).map(([name, pin]) => ({ kind: 'server', name, pin })),
    ].map(({ kind, name, pin }) => ({
      kind,
      name,
      location: pin.location,
      files: host.pinnedFileCount(pin),
    }));
    const description = host.describeProjectConfiguration(
      inspection.configuration,
      host.baselineConfiguration({ default: DEFAULT_PERSONALITY }),
      inspection.personalitySources,
    );
    return { inspection, trustStorage, code, pinned, description };
  } catch (error) {
    await trustStorage.close();
    throw error;
  }
}

/** Where trust cannot be recorded, why (a record inside the workspace a repository could ship). */
export const TRUST_RECORD_INSIDE_WORKSPACE =
  'Trust cannot be recorded: the trust directory is inside the workspace, where a repository could ship its own records.';

async function reviewAndTrust(review: TrustReview, options: TrustOptions): Promise<void> {
  const { inspection, trustStorage, code, pinned } = review;
  const trust = inspection.trust!;
  if (options.json) {
    printJson({
      workspace: inspection.workspace,
      configFile: inspection.configFile,
      state: trust.state,
      recordFile: trust.recordFile,
      changes: trust.comparison.changes,
      configuration: inspection.configuration,
      personalitySources: inspection.personalitySources,
      code: pinned,
    });
    return;
  }
  if (trust.basis === 'baseline' && trust.state === 'trusted') {
    printLine(`Nothing to trust: ${inspection.workspace} has no project configuration beyond Quiver's own.`);
    return;
  }
  printLine(color.bold(`Project configuration of ${inspection.workspace}`));
  if (inspection.configFile) printLine(`Config file: ${inspection.configFile}`);
  for (const line of review.description) printLine(line);
  for (const error of inspection.errors)
    printLine(color.yellow(`warning: left out, it does not load: ${error.message.split('\n')[0]}`));
  if (pinned.length > 0) {
    printLine('Code it runs, pinned by content (a later change is refused at launch):');
    for (const entry of pinned)
      printLine(
        `  ${entry.kind} ${entry.name}: ${entry.location === null ? 'not found (nothing installed may take its place)' : `${entry.location} (${entry.files} file${entry.files === 1 ? '' : 's'})`}`,
      );
  }
  if (trust.basis === 'record' || trust.basis === 'launch') {
    printLine();
    printLine(trust.state === 'trusted' ? 'Already trusted.' : 'Changes since it was last trusted:');
    for (const change of trust.comparison.changes)
      printLine(
        `  ${change.kind === 'widening' ? color.yellow('widening ') : color.dim('narrowing')} ${change.where.replace(/: $/, '')} ${change.description}`,
      );
  }
  if (trust.recordFile === undefined) {
    throw new CliError(
      TRUST_RECORD_INSIDE_WORKSPACE,
      'Point XDG_DATA_HOME (or HOME) at a directory outside the workspace, or launch with --trust-project.',
    );
  }
  const noPerson = noPersonTerminal();
  if (noPerson !== undefined) {
    throw new CliError(
      `\`quiver trust\` asks a person to confirm, and ${noPerson}, so nothing was trusted.`,
      "Run `quiver trust` in a terminal. When Quiver is launched from an MCP client's config, add --trust-project to its command line instead: it trusts the configuration found at launch, for that process only.",
      EXIT.usage,
      'trust_needs_terminal',
    );
  }
  const { confirm, isCancel } = await import('@clack/prompts');
  const answer = await confirm({
    message: 'Trust this configuration: start its servers and plugins and apply its rules?',
    initialValue: false,
  });
  if (isCancel(answer) || answer !== true) {
    printLine('Nothing was trusted.');
    process.exitCode = EXIT.usage;
    return;
  }
  // What was shown is what gets recorded: an edit made while the question was open is not trusted.
  const where = await trustStorage.writeRecord(inspection.configuration, {
    configFile: inspection.configFile,
    code,
  });
  printLine(`${color.green('trusted')} ${inspection.workspace} (record: ${where})`);
}
