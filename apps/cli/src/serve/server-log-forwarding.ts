import type { LoggingLevel, Server } from '@modelcontextprotocol/server';
import { errorMessage, LOG_LEVELS, subscribeToTypes } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';

const SEVERITY: readonly LoggingLevel[] = LOG_LEVELS;

/**
 * Passes the log messages of bridged MCP servers (already cleaned and rate-limited per server by
 * the bridge) to a client that asked for log messages with `logging/setLevel`, from that level
 * up. A client that never set a level gets none: most would only show them as noise. The logger
 * names the server, so a server cannot pass its messages off as Quiver's.
 */
export class ServerLogForwarding {
  readonly #server: Server;
  readonly #log: (message: string) => void;
  #level: LoggingLevel | undefined;

  constructor(server: Server, log: (message: string) => void) {
    this.#server = server;
    this.#log = log;
    server.setRequestHandler('logging/setLevel', (request) => {
      this.#level = request.params.level;
      return {};
    });
  }

  /** The level the client set with `logging/setLevel`; undefined until it does. */
  get level(): LoggingLevel | undefined {
    return this.#level;
  }

  /** Follows the host of `quiver` (replaced when the configuration reloads); returns the unsubscribe. */
  watch(quiver: Quiver): () => void {
    return subscribeToTypes(quiver.host.events, ['mcp_server.logged'], (event) => {
      if (this.#level === undefined) return;
      if (SEVERITY.indexOf(event.level) < SEVERITY.indexOf(this.#level)) return;
      const logger = `mcp__${event.mcpServer}${event.logger ? `/${event.logger}` : ''}`;
      this.#server
        .sendLoggingMessage({ level: event.level, logger, data: event.message })
        .catch((error: unknown) => this.#log(`could not send a log message: ${errorMessage(error)}`));
    });
  }
}
