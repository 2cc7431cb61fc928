import { knownAttackCommands } from './known-attacks.js';
import type { Oracle } from './oracle.js';
import { describeFinding, readRegressions, writeRegressions } from './regressions.js';

export interface KnownAttackSummary {
  commands: number;
  allowed: number;
  disagreements: number;
  recorded: number;
}

/** Runs every hand-written attack through the oracle and records the disagreements not yet recorded. */
export async function runKnownAttacks(
  oracle: Oracle,
  workspace: string,
  regressionsFile: string | undefined,
  log: (line: string) => void,
): Promise<KnownAttackSummary> {
  const summary: KnownAttackSummary = { commands: 0, allowed: 0, disagreements: 0, recorded: 0 };
  const file = regressionsFile ? readRegressions(regressionsFile) : undefined;
  const known = new Set(file?.entries.map((entry) => entry.command));
  for (const { className, command } of knownAttackCommands()) {
    const verdict = await oracle.check(command);
    summary.commands++;
    if (verdict.allowedUnder.length > 0) summary.allowed++;
    const findings = verdict.findings.map((finding) => describeFinding(finding, workspace));
    if (verdict.analyzerError) findings.push(`analyzer error: ${verdict.analyzerError.split('\n')[0]}`);
    if (findings.length === 0) continue;
    summary.disagreements++;
    log(`[fuzz:shell] known attack (${className}) disagrees: ${JSON.stringify(command)}`);
    for (const finding of findings) log(`    ${finding}`);
    if (!file || known.has(command)) continue;
    known.add(command);
    summary.recorded++;
    file.entries.push({
      command,
      class: className,
      findings,
      origin: 'known attack (test/oracle/known-attacks.ts)',
      found: new Date().toISOString().slice(0, 10),
      open: true,
    });
  }
  if (file && regressionsFile && summary.recorded > 0) writeRegressions(regressionsFile, file);
  return summary;
}
