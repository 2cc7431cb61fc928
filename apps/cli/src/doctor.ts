import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import type { GlobalOptions } from './global-options.js';
import { launchEnvironment } from './launch/launch-environment.js';
import { projectSettingsFiles } from './settings-files.js';

/** One thing `quiver doctor` looked at: ok, or what is wrong and how to fix it. */
export interface DoctorCheck {
  /** What was checked: `config`, `trust`, `mcp`, `sandbox`, `ripgrep`, `data`, `store`. */
  area: string;
  subject: string;
  status: 'ok' | 'warning' | 'problem';
  detail: string;
  fix?: string;
}

export interface DoctorReport {
  checks: DoctorCheck[];
  /** True when no check is a `problem` (warnings allowed). */
  healthy: boolean;
}

function programVersion(program: string, args: string[]): string | undefined {
  const result = spawnSync(program, args, { encoding: 'utf8', timeout: 10_000 });
  if (result.error || result.status !== 0) return undefined;
  return (result.stdout || result.stderr).split('\n')[0]?.trim();
}

/**
 * Everything a person needs to know is in order before using Quiver here: the settings files found
 * and their trust, the MCP servers of the default personality, the sandbox, ripgrep, the data
 * directory and its databases. Never throws for a problem it finds: each is a check with a fix.
 */
export async function diagnose(global: GlobalOptions): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  for (const { scope, file, exists } of await projectSettingsFiles(global)) {
    if (exists) checks.push({ area: 'config', subject: `${scope} settings`, status: 'ok', detail: file });
  }

  if (!checks.some((check) => check.subject === 'project settings'))
    checks.push({
      area: 'config',
      subject: 'project settings',
      status: 'warning',
      detail: `no quiver.yaml from ${path.resolve(global.workspace ?? process.cwd())} upward: the embedded defaults apply`,
      fix: 'Run `quiver init` in the project directory.',
    });
  const { openQuiver } = await import('./context.js');
  let quiver: Awaited<ReturnType<typeof openQuiver>> | undefined;
  try {
    quiver = await openQuiver(global, {}, { quiet: true });
  } catch (error) {
    const info = error as { message?: string; fix?: string };
    checks.push({
      area: 'config',
      subject: 'configuration',
      status: 'problem',
      detail: info.message ?? String(error),
      fix: info.fix ?? 'Correct the file named above.',
    });
  }
  if (quiver) {
    try {
      const trust = quiver.trust;
      checks.push(
        trust.state === 'trusted' || quiver.trustNotice === undefined
          ? {
              area: 'trust',
              subject: 'project configuration',
              status: 'ok',
              detail: `${trust.state} (${trust.basis})`,
            }
          : {
              area: 'trust',
              subject: 'project configuration',
              status: 'warning',
              detail: quiver.trustNotice.split('\n')[0] ?? trust.state,
              fix: 'Review and trust it with `quiver trust`.',
            },
      );
      for (const failed of quiver.host.plugins().failed)
        checks.push({
          area: 'plugin',
          subject: failed.plugin,
          status: 'problem',
          detail: `[${failed.code}] ${failed.message}`,
          fix: failed.fix ?? 'Run `quiver plugins` for the details.',
        });
      const session = quiver.createSession({});
      await session.ready();
      const { mcpServerProblems, mcpServerStatus } = await import('./mcp-server-problems.js');
      const problems = await mcpServerProblems(quiver, undefined, quiver.defaultPersonality);
      const statuses = mcpServerStatus(quiver);
      // A server the default personality enables that no settings file defines has no status.
      for (const problem of problems)
        if (!statuses.some((status) => status.server === problem.server))
          checks.push({
            area: 'mcp',
            subject: problem.server,
            status: 'problem',
            detail: problem.message,
            fix: problem.fix,
          });
      for (const status of statuses) {
        const problem = problems.find((candidate) => candidate.server === status.server);
        checks.push(
          problem
            ? {
                area: 'mcp',
                subject: status.server,
                status: 'problem',
                detail: problem.message,
                fix: problem.fix,
              }
            : {
                area: 'mcp',
                subject: status.server,
                status: 'ok',
                detail:
                  status.state === 'connected'
                    ? `connected, ${status.tools.length} tools`
                    : `${status.state === 'idle' ? 'not enabled by the default personality' : status.state}`,
              },
        );
      }
      const notice = await quiver.sandboxNotice();
      checks.push(
        notice
          ? {
              area: 'sandbox',
              subject: 'bubblewrap',
              status: 'warning',
              detail: notice,
              fix: 'Install bubblewrap (e.g. `apt-get install bubblewrap`).',
            }
          : {
              area: 'sandbox',
              subject: 'bubblewrap',
              status: 'ok',
              detail: programVersion('bwrap', ['--version']) ?? 'as the personality asks',
            },
      );
      const dataDir = quiver.host.options.dataDir;
      checks.push(dataDirectoryCheck(dataDir));
      const { checkStores } = await import('@quiver/wiring');
      for (const store of await checkStores({
        dataDir,
        storage: quiver.host.options.config.storage,
        environment: launchEnvironment(),
      }))
        checks.push({
          area: 'store',
          subject: path.isAbsolute(store.store)
            ? path.relative(dataDir, store.store) || store.store
            : store.store,
          status: store.status === 'ok' ? 'ok' : 'problem',
          detail:
            store.problem ?? (store.tables ? `ok (tables: ${store.tables.join(', ') || 'none'})` : 'ok'),
          ...(store.fix ? { fix: store.fix } : {}),
        });
    } finally {
      await quiver.close();
    }
  }
  const ripgrep = programVersion('rg', ['--version']);
  checks.push(
    ripgrep
      ? { area: 'ripgrep', subject: 'rg', status: 'ok', detail: ripgrep }
      : {
          area: 'ripgrep',
          subject: 'rg',
          status: 'warning',
          detail: 'ripgrep is not on PATH: grep_search falls back to a slower search in JavaScript',
          fix: 'Install ripgrep (e.g. `apt-get install ripgrep`).',
        },
  );
  return { checks, healthy: checks.every((check) => check.status !== 'problem') };
}

function dataDirectoryCheck(dataDir: string): DoctorCheck {
  if (!existsSync(dataDir))
    return {
      area: 'data',
      subject: 'data directory',
      status: 'ok',
      detail: `${dataDir} (created on first use)`,
    };
  try {
    accessSync(dataDir, constants.W_OK);
    return { area: 'data', subject: 'data directory', status: 'ok', detail: dataDir };
  } catch {
    return {
      area: 'data',
      subject: 'data directory',
      status: 'problem',
      detail: `${dataDir} is not writable`,
      fix: `Give your user write access to ${dataDir}, or pass --data-dir.`,
    };
  }
}
