import { environmentVariableOf } from '@quiver/plugin-host';
import type { SessionOptions } from '@quiver/runtime';
import type { Quiver } from '@quiver/wiring';
import type { Command } from 'commander';
import { parseConsoleAskTimeout, type RunningConsole, startConsole } from '../console/start-console.js';
import { openQuiver } from '../context.js';
import type { GlobalOptions } from '../global-options.js';
import { launchEnvironment } from '../launch/launch-environment.js';
import { CliError, EXIT, printError } from '../output.js';
import type { Caller, ServeAuthSettings } from '../serve/bearer-auth.js';
import { serveHttp } from '../serve/http.js';
import { parseConnectionLimits } from '../serve/http-connection-limits.js';
import { parseSessionLimits } from '../serve/http-session-limits.js';
import { isLoopbackHost, parseListenAddress } from '../serve/listen-address.js';
import { watchConfiguration } from '../serve/live-configuration.js';
import { createServeConnection, type ServeConnection } from '../serve/mcp-server.js';
import { STATE_KEY_VARIABLE, servePermissionRounds } from '../serve/permission-rounds.js';
import { serveStdio } from '../serve/stdio.js';
import { listTools } from '../serve/tool-listing.js';
import { parseMaxInFlight } from '../stdio/in-flight-requests.js';
import { parseMessageSize } from '../stdio/message-size.js';

interface ServeOptions {
  personality?: string;
  http?: string;
  allowRemote?: boolean;
  insecureNoAuth?: boolean;
  model?: string;
  json?: boolean;
  sessionIdleTimeout?: string;
  maxSessions?: string;
  maxMessageSize?: string;
  maxInFlight?: string;
  headerTimeout?: string;
  bodyTimeout?: string;
  maxConnections?: string;
  maxSessionConnections?: string;
  console?: boolean;
  consoleAskTimeout?: string;
}

const HTTP_ONLY = [
  ['sessionIdleTimeout', '--session-idle-timeout'],
  ['maxSessions', '--max-sessions'],
  ['headerTimeout', '--header-timeout'],
  ['bodyTimeout', '--body-timeout'],
  ['maxConnections', '--max-connections'],
  ['maxSessionConnections', '--max-session-connections'],
] as const;

interface ServeSummary {
  transport: 'stdio' | 'http';
  url?: string;
  personality: string;
  tools: number;
  deferredTools: number;
  tokens: number;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      "Serve a personality's gated tools as an MCP server: stdio by default, Streamable HTTP on loopback with --http.",
    )
    .option('-p, --personality <name|path>', 'personality whose tools to serve')
    .option(
      '--http <host:port>',
      'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (port 0 picks a free port)',
    )
    .option(
      '--allow-remote',
      'allow --http on a non-loopback host (with serve.auth in quiver.yaml, or --insecure-no-auth)',
    )
    .option(
      '--insecure-no-auth',
      'with --allow-remote and no serve.auth: serve anyone who can reach the address',
    )
    .option('--model <name>', 'model name; picks the model profile (which edit tools are offered)')
    .option(
      '--session-idle-timeout <seconds>',
      'with --http: close an MCP session after this many seconds without a request (default 1800)',
    )
    .option(
      '--max-sessions <count>',
      'with --http: most MCP sessions at once; a new one closes the longest-idle (default 100)',
    )
    .option(
      '--header-timeout <seconds>',
      'with --http: answer 408 and close a connection whose request headers take longer (default 10)',
    )
    .option(
      '--body-timeout <seconds>',
      'with --http: answer 408 and close a connection whose request body takes longer after its headers (default 30)',
    )
    .option(
      '--max-connections <count>',
      'with --http: most open connections in total; more are answered 503 (default 256)',
    )
    .option(
      '--max-session-connections <count>',
      'with --http: most requests under way at once per MCP session, event streams included; more are answered 429 (default 32)',
    )
    .option(
      '--max-message-size <size>',
      'over stdio: largest message read, e.g. 64MiB; a larger one is skipped and answered with an error (default 16MiB)',
    )
    .option(
      '--max-in-flight <count>',
      "over stdio: most of the client's requests under way at once; more are answered with an error (default 64)",
    )
    .option('--json', 'print the start summary as one JSON line')
    .option('--no-console', 'do not start the local console (`quiver console` opens it)')
    .option(
      '--console-ask-timeout <seconds>',
      'how long an ask the client cannot show waits for an answer in a connected console page (default 300)',
    )
    .action(async (options: ServeOptions, command: Command) => {
      const address = options.http === undefined ? undefined : parseListenAddress(options.http);
      const limits = parseSessionLimits(options);
      const connectionLimits = parseConnectionLimits(options);
      const maxMessageBytes = parseMessageSize(options.maxMessageSize);
      const maxInFlight = parseMaxInFlight(options.maxInFlight);
      const askTimeoutMs = parseConsoleAskTimeout(options.consoleAskTimeout);
      const httpOnly = HTTP_ONLY.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
      if (!address && httpOnly.length > 0)
        throw new CliError(
          `${httpOnly.join(' and ')} ${httpOnly.length === 1 ? 'applies' : 'apply'} to --http only: stdio serves one client, whose session ends when it disconnects.`,
          'Add --http 127.0.0.1:PORT, or leave these options out.',
          EXIT.usage,
        );
      if (address && options.maxMessageSize !== undefined)
        throw new CliError(
          '--max-message-size applies to stdio only: over --http a request body may be at most 4 MiB, answered 413 when larger.',
          'Leave --max-message-size out with --http.',
          EXIT.usage,
        );
      if (address && options.maxInFlight !== undefined)
        throw new CliError(
          '--max-in-flight applies to stdio only: over --http the requests under way per MCP session are bounded by --max-session-connections.',
          'Leave --max-in-flight out with --http, or use --max-session-connections.',
          EXIT.usage,
        );
      if (address && !options.allowRemote && !isLoopbackHost(address.host)) {
        throw new CliError(
          `Refusing to serve on non-loopback host "${address.host}": the MCP server has no authentication, so anyone who can reach it could run tools.`,
          'Use a loopback address such as --http 127.0.0.1:8765, or pass --allow-remote if you really mean it.',
          EXIT.usage,
        );
      }
      try {
        servePermissionRounds();
      } catch (error) {
        throw new CliError(
          (error as Error).message,
          `Set ${STATE_KEY_VARIABLE} to a longer secret, or unset it.`,
          EXIT.usage,
        );
      }
      const global = command.optsWithGlobals<GlobalOptions>();
      let quiver = await openQuiver(global, options, { sessionLogWriter: 'thread' });
      const auth = await resolveServeAuth(quiver);
      if (address && !isLoopbackHost(address.host) && !auth && !options.insecureNoAuth) {
        await quiver.close();
        throw new CliError(
          `Refusing to serve on non-loopback host "${address.host}" without authentication: anyone who can reach it could run tools.`,
          'Configure serve.auth in quiver.yaml (an OAuth authorization server whose tokens callers present; see docs/deploy.md), or pass --insecure-no-auth if a balancer in front authenticates every client.',
          EXIT.usage,
        );
      }
      // MCP clients may list tools once: tool_search stays offered while servers connect.
      const sessionOptions: SessionOptions = {
        stableToolList: true,
        ...(options.personality ? { personality: options.personality } : {}),
        ...(options.model ? { model: options.model } : {}),
      };
      const log = (message: string) => printError(`quiver serve: ${message}`);
      const connections = new Set<ServeConnection>();
      let personConsole: RunningConsole | undefined;
      const transport = address ? 'serve (http)' : 'serve (stdio)';
      const openConnection = (resume?: { sessionId: string }, caller?: Caller) => {
        const signedIn = caller
          ? { ...sessionOptions, personality: caller.personality, caller: caller.subject }
          : sessionOptions;
        const session = resume ? { ...signedIn, sessionId: resume.sessionId } : signedIn;
        if (caller)
          log(
            `caller ${JSON.stringify(caller.subject)} (client ${JSON.stringify(caller.clientId)}) signed in: personality ${caller.personality}`,
          );
        const connection = createServeConnection({
          quiver,
          session,
          log,
          ...(personConsole ? { console: { hub: personConsole.hub, transport } } : {}),
        });
        connections.add(connection);
        const close = connection.close.bind(connection);
        connection.close = async () => {
          connections.delete(connection);
          await close();
        };
        return connection;
      };
      // --trust-project trusts the configuration found at launch, not whatever the files say later.
      // The code it pinned then too: a reloaded configuration starts nothing that changed since.
      const launch = global.trustProject ? (quiver.trustedLaunch ?? quiver.trust.current) : undefined;
      const live = watchConfiguration({
        current: () => quiver,
        reopen: () =>
          openQuiver({ ...global, trustProject: false }, options, {
            quiet: true,
            sessionLogWriter: 'thread',
            ...(launch ? { trustProject: launch } : {}),
          }),
        check: (next) => void summarize(next, sessionOptions, options.personality),
        switchTo: async (next) => {
          const previous = quiver;
          quiver = next;
          await Promise.all([...connections].map((connection) => connection.switchTo(next)));
          await previous.close();
        },
        log,
      });
      try {
        // Assembling once up front turns a broken personality into a usage error, not a broken server.
        const summary = summarize(quiver, sessionOptions, options.personality);
        // Each personality a caller may be given must assemble too, or the caller would get errors.
        for (const personality of new Set(Object.values(auth?.personalities ?? {})))
          summarize(quiver, { ...sessionOptions, personality }, personality);
        // `sandbox: auto` without bubblewrap: said once at start; each session also gets it as an event.
        const sandboxNotice = await quiver.sandboxNotice();
        if (sandboxNotice) log(sandboxNotice);
        if (options.console !== false) {
          personConsole = await startConsole({ kind: transport, quiver: () => quiver, askTimeoutMs });
          log(`console on ${personConsole.url} — open it with \`quiver console\``);
        }
        if (address) {
          const sharedRecords = () => quiver.host.options.sharedStorage?.serveSessions;
          const server = await serveHttp({
            address,
            openConnection,
            ...(auth ? { auth } : {}),
            log,
            limits,
            connectionLimits,
            sharedRecords,
          });
          announce({ ...summary, transport: 'http', url: server.url }, options.json === true, process.stdout);
          await untilSignal();
          await server.close();
        } else {
          // stdout carries the protocol; stray console output from plugins must not corrupt it.
          console.log = console.info = console.debug = console.error;
          const server = await serveStdio(openConnection(), maxMessageBytes, maxInFlight);
          announce({ ...summary, transport: 'stdio' }, options.json === true, process.stderr);
          await Promise.race([untilSignal(), server.closed]);
          await server.close();
        }
      } finally {
        live.close();
        await personConsole?.close();
        await quiver.close();
      }
    });
}

/** `serve.auth` with the introspection secret read from the environment variable it names. */
async function resolveServeAuth(quiver: Quiver): Promise<ServeAuthSettings | undefined> {
  const auth = quiver.host.options.config.serve?.auth;
  if (!auth?.introspection) return auth;
  const variable = environmentVariableOf(auth.introspection.clientSecret) as string;
  const clientSecret = launchEnvironment()[variable];
  if (!clientSecret) {
    await quiver.close();
    throw new CliError(
      `serve.auth.introspection takes its client secret from \${${variable}}, but ${variable} is not set.`,
      `Set ${variable} to the secret of the client ${auth.introspection.clientId} where quiver serve runs.`,
      EXIT.usage,
    );
  }
  return { ...auth, introspection: { ...auth.introspection, clientSecret } };
}

function summarize(
  quiver: Quiver,
  sessionOptions: SessionOptions,
  personality: string | undefined,
): Omit<ServeSummary, 'transport'> {
  const session = quiver.createSession(sessionOptions);
  try {
    const listing = listTools(session);
    return {
      personality: personality ?? quiver.defaultPersonality,
      tools: listing.tools.length,
      deferredTools: listing.deferredTools,
      tokens: listing.tokens,
    };
  } finally {
    void session.close();
  }
}

function announce(summary: ServeSummary, json: boolean, stream: NodeJS.WritableStream): void {
  if (json) {
    stream.write(`${JSON.stringify(summary)}\n`);
    return;
  }
  const deferred = summary.deferredTools > 0 ? `, ${summary.deferredTools} more through tool_search` : '';
  const where = summary.url ?? 'stdio';
  stream.write(
    `quiver serve: ${summary.tools} tools (~${summary.tokens} tokens${deferred}) of personality "${summary.personality}" on ${where}\n`,
  );
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // A closed terminal sends SIGHUP: shut down as for SIGTERM (running commands, temp dirs).
    process.on('SIGHUP', onSignal);
  });
}
