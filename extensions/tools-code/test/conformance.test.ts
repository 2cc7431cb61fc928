import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scenariosDir = path.resolve(packageDir, '../../../shared/data/apply-patch-scenarios');
const runner = path.join(packageDir, 'scripts', 'run-patch-scenarios.mjs');

function runRunner(directory: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [runner, directory], { cwd: packageDir }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('apply-patch conformance runner', () => {
  it('passes every public scenario except the named intended difference', async () => {
    await access(path.join(scenariosDir, 'README.md')).catch(() => {
      throw new Error(
        `The scenario suite is missing at ${scenariosDir}; it lives in shared/ beside the repository.`,
      );
    });
    const { code, stdout, stderr } = await runRunner(scenariosDir);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const statuses = stdout
      .split('\n')
      .filter((line) => /^(PASS|FAIL|INTENDED DIFFERENCE)\s+\d{3}_/.test(line))
      .map((line) => line.replace(/\s+/g, ' ').trim());
    expect(statuses).toHaveLength(25);
    expect(statuses.filter((line) => !line.startsWith('PASS '))).toEqual([
      'INTENDED DIFFERENCE 015_failure_after_partial_success_leaves_changes',
    ]);
    expect(stdout).toContain('25 scenarios: 24 passed, 0 failed, 1 intended differences.');
  });

  it('exits non-zero when the scenarios directory does not exist', async () => {
    const { code, stderr } = await runRunner(path.join(packageDir, 'no-such-scenarios'));
    expect(code).not.toBe(0);
    expect(stderr).toContain('No scenarios at');
  });
});
