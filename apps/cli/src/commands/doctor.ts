import type { Command } from 'commander';
import type { DoctorCheck } from '../doctor.js';
import { globalOptions } from '../global-options.js';
import { color, EXIT, printJson, printLine } from '../output.js';

const MARK: Record<DoctorCheck['status'], (text: string) => string> = {
  ok: (text) => color.green(text),
  warning: (text) => color.yellow(text),
  problem: (text) => color.red(text),
};

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check this installation and project: settings files and their trust, MCP servers, sandbox, ripgrep, data directory and databases, with a fix for each problem.',
    )
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { diagnose } = await import('../doctor.js');
      const report = await diagnose(globalOptions(command));
      if (!report.healthy) process.exitCode = EXIT.toolFailed;
      if (options.json) {
        printJson(report);
        return;
      }
      for (const check of report.checks) {
        printLine(
          `${MARK[check.status](check.status.padEnd(7))} ${check.area.padEnd(8)} ${color.bold(check.subject)}  ${check.detail}`,
        );
        if (check.fix) printLine(color.dim(`        fix: ${check.fix}`));
      }
      const problems = report.checks.filter((check) => check.status === 'problem').length;
      const warnings = report.checks.filter((check) => check.status === 'warning').length;
      printLine();
      printLine(
        problems === 0
          ? color.green(`No problems (${warnings} warnings).`)
          : color.red(`${problems} problems, ${warnings} warnings.`),
      );
    });
}
