import type {
  Client,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import { errorMessage } from '@quiver/types';
import type { McpServerStatus } from './bridge-types.js';
import type { RelayAsker } from './client-relay.js';
import type { ResourceSubscriptions, ResourceUpdateListener } from './resource-subscriptions.js';

export type McpResource = ListResourcesResult['resources'][number] & { server: string };
export type McpResourceTemplate = ListResourceTemplatesResult['resourceTemplates'][number] & {
  server: string;
};
export type McpPrompt = ListPromptsResult['prompts'][number] & { server: string };

/** What at least one of the servers a caller may see offers beyond listing and reading. */
export interface CatalogOffers {
  /** `resources/subscribe`: the server tells subscribers when a resource changes. */
  subscribe: boolean;
  /** `completion/complete` for prompt and resource-template arguments. */
  completions: boolean;
}

/** One configured server as the catalog sees it: its client while connected, else why not. */
export interface CatalogServer {
  server: string;
  client: Client | undefined;
  /** Why there is no client (not started, down, disabled). */
  reason: string | undefined;
  /** Bounds each request to the server. */
  timeoutMs: number;
  /** The server's resource subscriptions, shared by everyone who relays them. */
  subscriptions: ResourceSubscriptions;
  /** Where the server's questions (elicitation, sampling) go while a request of it runs. */
  relay?: { during<T>(asker: RelayAsker, requestName: string, run: () => Promise<T>): Promise<T> };
}

export interface CatalogListing<T> {
  items: T[];
  /** Servers that could not be asked, or whose answer failed, with the reason. */
  unavailable: Array<{ server: string; reason: string }>;
}

export interface CatalogRequestOptions {
  signal?: AbortSignal;
  /** The servers this caller may see (those its personality enables); default every one. */
  servers?: readonly string[];
  /**
   * Who the server's questions during this request go to (getPrompt): without it a prompt that
   * asks its client is refused, as no tool call is running to say whom to ask.
   */
  asker?: RelayAsker;
}

/** A request naming a server this bridge does not have. */
export class UnknownMcpServerError extends Error {
  constructor(
    readonly server: string,
    readonly known: readonly string[],
  ) {
    super(
      `there is no MCP server "${server}" here; ${known.length > 0 ? `the servers are: ${known.join(', ')}` : 'no MCP server is configured'}`,
    );
  }
}

/**
 * The resources and prompts of the bridge's connected servers, each tagged with its server:
 * what the model's resource tools read and what `quiver serve` relays to its clients.
 */
export class McpCatalog {
  constructor(
    private readonly servers: () => readonly CatalogServer[],
    private readonly statuses: () => readonly McpServerStatus[] = () => [],
  ) {}

  /** Every configured server's state: started, down with its last error, or invalid (never started). */
  serverStatus(): McpServerStatus[] {
    return [...this.statuses()];
  }

  listResources(server?: string, options: CatalogRequestOptions = {}): Promise<CatalogListing<McpResource>> {
    return this.gather(server, options, 'resources', async (entry, client) =>
      (await client.listResources(undefined, this.requestOptions(entry, options))).resources.map(
        (resource) => ({ ...resource, server: entry.server }),
      ),
    );
  }

  listPrompts(server?: string, options: CatalogRequestOptions = {}): Promise<CatalogListing<McpPrompt>> {
    return this.gather(server, options, 'prompts', async (entry, client) =>
      (await client.listPrompts(undefined, this.requestOptions(entry, options))).prompts.map((prompt) => ({
        ...prompt,
        server: entry.server,
      })),
    );
  }

  listResourceTemplates(
    server?: string,
    options: CatalogRequestOptions = {},
  ): Promise<CatalogListing<McpResourceTemplate>> {
    return this.gather(server, options, 'resources', async (entry, client) =>
      (
        await client.listResourceTemplates(undefined, this.requestOptions(entry, options))
      ).resourceTemplates.map((template) => ({ ...template, server: entry.server })),
    );
  }

  /** What the connected servers among those the caller may see offer. */
  offers(options: CatalogRequestOptions = {}): CatalogOffers {
    const offers: CatalogOffers = { subscribe: false, completions: false };
    for (const entry of this.visible(options)) {
      const capabilities = entry.client?.getServerCapabilities();
      if (capabilities?.resources?.subscribe === true) offers.subscribe = true;
      if (capabilities?.completions !== undefined) offers.completions = true;
    }
    return offers;
  }

  /**
   * Completions for an argument of one of the server's prompts or resource templates (the
   * reference as the server names it). A server that offers no completions has none: empty values.
   */
  async complete(
    server: string,
    params: CompleteRequest['params'],
    options: CatalogRequestOptions = {},
  ): Promise<CompleteResult> {
    const { entry, client } = this.connected(server, options);
    if (client.getServerCapabilities()?.completions === undefined) return { completion: { values: [] } };
    return client.complete(params, this.requestOptions(entry, options));
  }

  /**
   * Calls `listener` whenever the server says the resource changed; resolves to the function
   * that stops. Throws `UnknownMcpServerError`, an error when the server offers no
   * subscriptions, or the server's own refusal.
   */
  async subscribeResource(
    server: string,
    uri: string,
    listener: ResourceUpdateListener,
    options: CatalogRequestOptions = {},
  ): Promise<() => Promise<void>> {
    const { entry, client } = this.connected(server, options);
    if (client.getServerCapabilities()?.resources?.subscribe !== true)
      throw new Error(`MCP server "${server}" does not offer resource subscriptions`);
    return entry.subscriptions.add(uri, listener);
  }

  /** Throws `UnknownMcpServerError`, or the server's own error. */
  async readResource(
    server: string,
    uri: string,
    options: CatalogRequestOptions = {},
  ): Promise<ReadResourceResult> {
    const { entry, client } = this.connected(server, options);
    return client.readResource({ uri }, this.requestOptions(entry, options));
  }

  /** Throws `UnknownMcpServerError`, or the server's own error. */
  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string> | undefined,
    options: CatalogRequestOptions = {},
  ): Promise<GetPromptResult> {
    const { entry, client } = this.connected(server, options);
    const get = () =>
      client.getPrompt({ name, ...(args ? { arguments: args } : {}) }, this.requestOptions(entry, options));
    return options.asker && entry.relay ? entry.relay.during(options.asker, `prompt ${name}`, get) : get();
  }

  private visible(options: CatalogRequestOptions): CatalogServer[] {
    const { servers } = options;
    return this.servers().filter((entry) => servers === undefined || servers.includes(entry.server));
  }

  private connected(
    server: string,
    options: CatalogRequestOptions,
  ): { entry: CatalogServer; client: Client } {
    const all = this.visible(options);
    const entry = all.find((candidate) => candidate.server === server);
    if (entry === undefined)
      throw new UnknownMcpServerError(
        server,
        all.map((candidate) => candidate.server),
      );
    if (entry.client === undefined)
      throw new Error(`MCP server "${server}" is not connected: ${entry.reason ?? 'not started'}`);
    return { entry, client: entry.client };
  }

  private requestOptions(entry: CatalogServer, options: CatalogRequestOptions) {
    return { timeout: entry.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  }

  private async gather<T>(
    server: string | undefined,
    options: CatalogRequestOptions,
    capability: 'resources' | 'prompts',
    list: (entry: CatalogServer, client: Client) => Promise<T[]>,
  ): Promise<CatalogListing<T>> {
    const all = this.visible(options);
    if (server !== undefined && !all.some((entry) => entry.server === server))
      throw new UnknownMcpServerError(
        server,
        all.map((entry) => entry.server),
      );
    const wanted = all.filter((entry) => server === undefined || entry.server === server);
    const listing: CatalogListing<T> = { items: [], unavailable: [] };
    const results = await Promise.all(
      wanted.map(async (entry) => {
        const client = entry.client;
        if (client === undefined)
          return { entry, failure: `not connected: ${entry.reason ?? 'not started'}` };
        // A server that does not declare the capability has none to list.
        if (client.getServerCapabilities()?.[capability] === undefined) return { entry, items: [] as T[] };
        try {
          return { entry, items: await list(entry, client) };
        } catch (error) {
          return { entry, failure: errorMessage(error) };
        }
      }),
    );
    for (const result of results) {
      if ('failure' in result && result.failure !== undefined)
        listing.unavailable.push({ server: result.entry.server, reason: result.failure });
      else if ('items' in result && result.items) listing.items.push(...result.items);
    }
    return listing;
  }
}
