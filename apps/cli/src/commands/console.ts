import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { type ConsoleRecord, consoleDirectory, runningConsoles } from '../console/runtime-records.js';
import { consoleServerAncestor, markedByQuiverTools } from '../interactive/person-terminal.js';
import { CliError, EXIT, printJson, printLine } from '../output.js';

interface ConsoleOptions {
  pid?: string;
  open?: boolean;
  json?: boolean;
}

/** The address a person opens: the secret in the fragment, which a browser never sends. */
function pageAddress(record: ConsoleRecord): string {
  return `${record.url}#token=${record.token}`;
}

async function answers(record: ConsoleRecord): Promise<boolean> {
  try {
    const response = await fetch(new URL('/api/ping', record.url), {
      headers: { authorization: `Bearer ${record.token}` },
      signal: AbortSignal.timeout(3_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** A one-time code for a browser's command line, where any process of the user could read a secret. */
async function oneTimeAddress(record: ConsoleRecord): Promise<string> {
  const response = await fetch(new URL('/api/codes', record.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${record.token}` },
    signal: AbortSignal.timeout(3_000),
  });
  const { code } = (await response.json()) as { code: string };
  return `${record.url}#code=${code}`;
}

function openInBrowser(address: string): void {
  const opener =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(opener, [address], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
}

export function registerConsoleCommand(program: Command): void {
  program
    .command('console')
    .description(
      'Open the local console of a running `quiver serve` or `quiver rpc`: watch calls live and answer asks the MCP client cannot show. Prints the address (with its secret) or opens it.',
    )
    .option('--pid <pid>', 'the console of this process (default: the one running, or the newest)')
    .option('--open', 'open the page in your browser (with a one-time code, not the secret)')
    .option('--json', 'print the running consoles as JSON')
    .action(async (options: ConsoleOptions) => {
      // The address carries the secret that makes an answer a person's: a command of the model's must not get it.
      if (markedByQuiverTools())
        throw new CliError(
          "`quiver console` hands out the secret with which a person answers Quiver's permission asks, and it was run by a command of Quiver's terminal tool; it printed nothing.",
          'Run `quiver console` yourself, in your own terminal.',
          EXIT.usage,
          'person_only_command',
        );
      // A command of the model's runs below the server whose tools started it, whatever it did to
      // its environment (`env -u`, `env -i`) or terminal.
      const above = consoleServerAncestor();
      if (above !== undefined)
        throw new CliError(
          `\`quiver console\` runs inside a Quiver server with a console (pid ${above}), as a command of its tools does; it printed nothing.`,
          'Run `quiver console` yourself, in your own terminal.',
          EXIT.usage,
          'person_only_command',
        );
      let records = runningConsoles();
      if (options.pid !== undefined) {
        const pid = Number(options.pid);
        if (!Number.isInteger(pid) || pid <= 0)
          throw new CliError(
            `--pid must be a process id, not ${JSON.stringify(options.pid)}.`,
            'Run `quiver console` to list them.',
            EXIT.usage,
          );
        records = records.filter((record) => record.pid === pid);
        if (records.length === 0)
          throw new CliError(
            `No running console belongs to process ${pid}.`,
            'Run `quiver console` without --pid to list the running ones.',
            EXIT.toolFailed,
            'no_console',
          );
      }
      if (records.length === 0)
        throw new CliError(
          `No running \`quiver serve\` or \`quiver rpc\` has a console for you (looked in ${consoleDirectory()}).`,
          'Start one with `quiver serve` (or `quiver serve --http`, or let your MCP client start it) or `quiver rpc` in your project, then run `quiver console` again; a server started with --no-console has none.',
          EXIT.toolFailed,
          'no_console',
        );
      const live = [];
      for (const record of records) if (await answers(record)) live.push(record);
      if (live.length === 0)
        throw new CliError(
          `The console${records.length === 1 ? '' : 's'} of process ${records.map((record) => record.pid).join(', ')} did not answer.`,
          'Restart the server; its console starts with it.',
          EXIT.toolFailed,
          'no_console',
        );
      if (options.json) {
        printJson(
          live.map((record) => ({
            pid: record.pid,
            kind: record.kind,
            workspace: record.workspace,
            startedAt: new Date(record.startedAt).toISOString(),
            url: pageAddress(record),
          })),
        );
        return;
      }
      if (options.open) {
        const chosen = live[0] as ConsoleRecord;
        openInBrowser(await oneTimeAddress(chosen));
        printLine(
          `Opened the console of ${chosen.kind} (pid ${chosen.pid}, ${chosen.workspace}) in your browser.`,
        );
        if (live.length > 1)
          printLine(
            `${live.length - 1} more running; pick one with --pid (list them with \`quiver console\`).`,
          );
        return;
      }
      for (const record of live) {
        printLine(
          `${record.kind} · pid ${record.pid} · ${record.workspace} · since ${new Date(record.startedAt).toISOString().slice(0, 19).replace('T', ' ')}`,
        );
        printLine(`  ${pageAddress(record)}`);
      }
      printLine(
        'Open the address in your browser; it holds the secret that lets you answer asks, so keep it to yourself.',
      );
    });
}
