import type { Command } from 'commander';
import { openQuiver } from '../context.js';
import { globalOptions, VERSION } from '../global-options.js';
import { CliError, EXIT, printError, printJson, printLine } from '../output.js';

interface LoginOptions {
  timeout: string;
  json?: boolean;
}

/** `quiver mcp login <server>`: OAuth sign-in to a remote MCP server, no browser launched. */
export function registerMcpLoginCommand(mcp: Command): void {
  mcp
    .command('login')
    .description(
      'Sign in to a remote MCP server with OAuth: prints a URL to open in a browser on this machine, receives the redirect on a loopback port and keeps the tokens for you (0600, in your data directory), refreshed when they expire.',
    )
    .argument('<server>', 'the name of the server under mcpServers')
    .option('--timeout <seconds>', 'how long to wait for the browser to come back', '300')
    .option('--json', 'print the outcome as JSON (the URL to open stays on stderr)')
    .action(async (server: string, options: LoginOptions, command: Command) => {
      const seconds = Number(options.timeout);
      if (!Number.isFinite(seconds) || seconds <= 0)
        throw new CliError(
          `--timeout must be a positive number of seconds, not "${options.timeout}".`,
          'Pass e.g. --timeout 300.',
          EXIT.usage,
          'usage',
        );
      const { loginToConfiguredMcpServer } = await import('@quiver/wiring');
      const quiver = await openQuiver(globalOptions(command));
      try {
        const result = await loginToConfiguredMcpServer(quiver, {
          server,
          clientVersion: VERSION,
          timeoutMs: seconds * 1000,
          onAuthorizationUrl: (url) => {
            printError(`Open this URL in a browser on this machine to sign in to "${server}":`);
            printError(url.href);
            printError(`Waiting up to ${seconds} s for the browser to come back…`);
          },
        });
        if (options.json) printJson({ server, ...result });
        else if (result.outcome === 'not-required')
          printLine(`MCP server "${server}" did not ask for authorization; nothing was stored.`);
        else
          printLine(
            `${result.outcome === 'signed-in' ? 'Signed in to' : 'Already signed in to'} MCP server "${server}" (${result.tools} tools). Tokens: ${result.tokenFile}`,
          );
      } finally {
        await quiver.close();
      }
    });
}
