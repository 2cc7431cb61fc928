import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import { errorMessage, subscribeToTypes } from '@quiver/types';
import type { Quiver } from '@quiver/wiring';
import { lineDiff } from '../commands/definition-diff.js';
import {
  type PendingDefinitionChange,
  pendingDefinitionChanges,
} from '../commands/pending-definition-changes.js';
import { terminalText } from '../output.js';
import { personAnswerOptions } from './person-answer.js';

/** Sends one elicitation request to the client, outside any request of its own. */
export type ElicitReview = (
  params: ElicitRequestFormParams,
  options: { signal: AbortSignal; timeout: number },
) => Promise<ElicitResult>;

export interface DefinitionReviewOptions {
  elicit: ElicitReview;
  /** Where what happened goes; never stdout, which may carry the protocol. */
  log: (message: string) => void;
}

/** The warning the bridge raises when it withholds a changed definition. */
const QUARANTINED = 'mcp_tool_quarantined';
const MAX_DIFF_LINES = 40;
const MAX_MESSAGE_CHARS = 4_000;

/**
 * Asks the person behind a serve client that supports form elicitation to review MCP tool
 * definitions that changed since they were pinned: the changes waiting when the client connects
 * and each one withheld later. An approval pins what was shown and has the bridge register the
 * tool (the client then gets tools/list_changed); any other answer leaves it withheld. Each change
 * is asked about once per connection.
 */
export class DefinitionReview {
  readonly #options: DefinitionReviewOptions;
  readonly #asked = new Set<string>();
  readonly #stop = new AbortController();
  #quiver: Quiver | undefined;
  #enabled = false;
  #queue: Promise<void> = Promise.resolve();

  constructor(options: DefinitionReviewOptions) {
    this.#options = options;
  }

  /** Follows the host of `quiver` (replaced when the configuration reloads); returns the unsubscribe. */
  watch(quiver: Quiver): () => void {
    this.#quiver = quiver;
    const unsubscribe = subscribeToTypes(quiver.host.events, ['session.warning'], (event) => {
      if (event.code === QUARANTINED) this.#scan();
    });
    this.#scan();
    return unsubscribe;
  }

  /** The client answers form elicitation: from now on, changes are put to its user. */
  enable(): void {
    this.#enabled = true;
    this.#scan();
  }

  close(): void {
    this.#stop.abort();
  }

  #scan(): void {
    const quiver = this.#quiver;
    if (!this.#enabled || quiver === undefined || this.#stop.signal.aborted) return;
    this.#queue = this.#queue
      .then(() => this.#reviewAll(quiver))
      .catch((error: unknown) => {
        if (!this.#stop.signal.aborted)
          this.#options.log(`the review of changed MCP tool definitions failed: ${errorMessage(error)}`);
      });
  }

  async #reviewAll(quiver: Quiver): Promise<void> {
    const trustStorage = quiver.host.trustStorage;
    const pins = await trustStorage.readPins();
    if (pins === undefined) return;
    for (const change of pendingDefinitionChanges(pins)) {
      const key = JSON.stringify([change.server, change.tool, change.hash]);
      if (this.#asked.has(key) || this.#stop.signal.aborted) continue;
      this.#asked.add(key);
      const answer = await this.#options.elicit(reviewForm(change), personAnswerOptions(this.#stop.signal));
      const what = `MCP tool ${JSON.stringify(change.tool)} of server ${JSON.stringify(change.server)}`;
      if (answer.action !== 'accept' || answer.content?.decision !== 'approve') {
        this.#options.log(`${what} stays withheld: its changed definition was not approved.`);
        continue;
      }
      // What was shown is what gets pinned: a definition changed again meanwhile is not approved.
      // The bridge watches the pin file and registers the tool once the pin is written.
      if (!(await trustStorage.approve(change)))
        this.#options.log(`${what} changed again while it was reviewed; it stays withheld.`);
    }
  }
}

/** The question: which tool, since when, and the changed lines, with server text made inert. */
function reviewForm(change: PendingDefinitionChange): ElicitRequestFormParams {
  const changed = lineDiff(
    JSON.stringify(change.before, null, 2),
    JSON.stringify(change.after, null, 2),
  ).filter((line) => !line.startsWith('  '));
  const shown = changed.slice(0, MAX_DIFF_LINES);
  const more = changed.length - shown.length;
  let diff = shown.join('\n');
  if (more > 0) diff += `\n… ${more} more changed lines (\`quiver mcp review\` shows them all)`;
  if (diff.length > MAX_MESSAGE_CHARS)
    diff = `${diff.slice(0, MAX_MESSAGE_CHARS)}\n… (cut; \`quiver mcp review\` shows the whole change)`;
  const message = [
    `The MCP server ${JSON.stringify(change.server)} changed its tool ${JSON.stringify(change.tool)} since it was pinned on ${change.pinnedAt}.`,
    'Quiver withholds it until you approve the new definition:',
    diff,
  ].join('\n');
  return {
    mode: 'form',
    // JSON already escaped control characters (names included); this shows invisible and bidi ones.
    message: terminalText(message),
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          oneOf: [
            { const: 'approve', title: 'Approve the new definition' },
            { const: 'withhold', title: 'Keep it withheld' },
          ],
          default: 'withhold',
        },
      },
      required: ['decision'],
    },
  };
}
