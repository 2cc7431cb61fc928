import type { Command } from 'commander';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { type GlobalOptions, openQuiver } from '../context.js';
import { printError } from '../output.js';
import { serveRpc } from '../rpc/rpc-server.js';

export function registerRpcCommand(program: Command): void {
  program
    .command('rpc')
    .description(
      'Serve Quiver sessions over JSON-RPC 2.0 on stdio (Content-Length framing, as LSP): embed Quiver from any language. Protocol: docs/rpc.md.',
    )
    .action(async (_options: unknown, command: Command) => {
      const quiver = await openQuiver(command.optsWithGlobals<GlobalOptions>());
      const connection = createMessageConnection(
        new StreamMessageReader(process.stdin),
        new StreamMessageWriter(process.stdout),
      );
      connection.onError(([error]) => printError(`quiver rpc: ${error.message}`));
      const { closed } = serveRpc(quiver, connection);
      const stop = () => connection.dispose();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.stdin.once('end', stop);
      await closed;
      await quiver.close();
    });
}
