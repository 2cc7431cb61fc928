import type { Command } from 'commander';
import { createMessageConnection } from 'vscode-jsonrpc/node';
import { parseConsoleAskTimeout, type RunningConsole, startConsole } from '../console/start-console.js';
import { openQuiver } from '../context.js';
import type { GlobalOptions } from '../global-options.js';
import { printError } from '../output.js';
import { BoundedMessageReader, BoundedMessageWriter } from '../rpc/framing.js';
import { serveRpc } from '../rpc/rpc-server.js';
import { InFlightRequests, parseMaxInFlight } from '../stdio/in-flight-requests.js';
import { parseMessageSize } from '../stdio/message-size.js';

interface RpcOptions {
  maxMessageSize?: string;
  maxInFlight?: string;
  console?: boolean;
  consoleAskTimeout?: string;
}

export function registerRpcCommand(program: Command): void {
  program
    .command('rpc')
    .description(
      'Serve Quiver sessions over JSON-RPC 2.0 on stdio (Content-Length framing, as LSP): embed Quiver from any language. Protocol: docs/rpc.md.',
    )
    .option(
      '--max-message-size <size>',
      'largest message read, e.g. 64MiB; a larger one is skipped and answered with an error (default 16MiB)',
    )
    .option(
      '--max-in-flight <count>',
      "most of the client's requests under way at once; more are answered with an error (default 64)",
    )
    .option('--no-console', 'do not start the local console (`quiver console` opens it)')
    .option(
      '--console-ask-timeout <seconds>',
      'how long an ask of a client without the permissions capability waits for a console page (default 300)',
    )
    .action(async (options: RpcOptions, command: Command) => {
      const maxMessageBytes = parseMessageSize(options.maxMessageSize);
      const inFlight = new InFlightRequests(parseMaxInFlight(options.maxInFlight));
      const askTimeoutMs = parseConsoleAskTimeout(options.consoleAskTimeout);
      const quiver = await openQuiver(
        command.optsWithGlobals<GlobalOptions>(),
        {},
        { sessionLogWriter: 'thread' },
      );
      const log = (message: string) => printError(`quiver rpc: ${message}`);
      const personConsole: RunningConsole | undefined =
        options.console === false
          ? undefined
          : await startConsole({ kind: 'rpc', quiver: () => quiver, askTimeoutMs });
      const writer = new BoundedMessageWriter(process.stdout, inFlight);
      const reader = new BoundedMessageReader({
        maxMessageBytes,
        inFlight,
        reply: (message) => void writer.write(message).catch(() => {}),
        log,
      });
      const connection = createMessageConnection(reader, writer);
      connection.onError(([error]) => log(error.message));
      const { closed } = serveRpc(quiver, connection, personConsole?.hub);
      const stop = () => connection.dispose();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.once('SIGHUP', stop);
      await closed;
      connection.dispose();
      await personConsole?.close();
      await quiver.close();
      // After `shutdown` stdin may still be open: stop reading it, and end even if a handle lingers.
      process.stdin.destroy();
      setTimeout(() => process.exit(0), 2_000).unref();
    });
}
