/**
 * What an MCP server the bridge talks to may ask of Quiver's own client side. Each kind is off
 * for a server until its configuration allows it (`mcpServers.<name>.allow`), because a hostile
 * server could phish through a question or spend someone's model through sampling.
 */
export const CLIENT_RELAY_KINDS = ['elicitation', 'sampling', 'roots'] as const;
export type ClientRelayKind = (typeof CLIENT_RELAY_KINDS)[number];

/**
 * One request made while a tool ran: by a bridged MCP server, or by a tool that declares
 * `client_relay` and asks on its own behalf.
 */
export interface RelayedRequest {
  /** The MCP server that asked; absent when the tool itself asks. */
  server?: string;
  /** The call that was running on that server when it asked. */
  callId: string;
  /** Quiver's name of that call's tool. */
  toolName: string;
  /** The request's params as the server sent them (`elicitation/create`, `sampling/createMessage`). */
  params: Readonly<Record<string, unknown>>;
  /**
   * The name this request takes among the `inputRequests` of an MCP `input-required` result,
   * when the caller is answered that way (revision 2026-07-28). Unique within one call; a name
   * already taken, or none, gets one made from the asker and the kind.
   */
  key?: string;
}

/** The person's answer (as MCP's `ElicitResult`), or why nobody could be asked. */
export type ElicitationOutcome =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' }
  | RelayRefusal;

/**
 * Why the caller could not be asked. `missingCapability` names the MCP client capability the
 * caller did not declare (a tool that cannot work without it fails with `client_capability_missing`,
 * which serve answers as MCP's MissingRequiredClientCapabilityError); `inputRequired` says the
 * question went back to the caller in an `input-required` result and the call runs again with the
 * answer, so the tool should stop.
 */
export interface RelayRefusal {
  action: 'refused';
  reason: string;
  missingCapability?: ClientRelayKind;
  inputRequired?: true;
}

/** The client's `CreateMessageResult`, or why no model could be asked. */
export type SamplingOutcome = { action: 'completed'; result: Record<string, unknown> } | RelayRefusal;

/** The caller's roots (MCP's `ListRootsResult.roots`), or why they could not be listed. */
export type RootsOutcome =
  | { action: 'listed'; roots: ReadonlyArray<{ uri: string; name?: string }> }
  | RelayRefusal;

/**
 * Whoever started the session (a terminal, the MCP client of `quiver serve`), as the host
 * relays a bridged server's questions to it. Never throws for a refusal: it says why.
 */
export interface ClientRelayHandle {
  elicit(request: RelayedRequest, signal: AbortSignal): Promise<ElicitationOutcome>;
  sample(request: RelayedRequest, signal: AbortSignal): Promise<SamplingOutcome>;
  /** The caller's roots (`roots/list`); absent when the caller has none to give (a terminal). */
  listRoots?(request: RelayedRequest, signal: AbortSignal): Promise<RootsOutcome>;
}
