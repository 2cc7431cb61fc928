import { createHash, randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { launchEnvironment } from '../launch/launch-environment.js';
import type { ElicitForm } from './permission-elicitation.js';

/** The environment variable holding the key that signs permission rounds (the same on every replica). */
export const STATE_KEY_VARIABLE = 'QUIVER_SERVE_STATE_KEY';

let processRounds: PermissionRounds | undefined;

/**
 * The permission rounds of this process, keyed by QUIVER_SERVE_STATE_KEY (at least 32 bytes) or,
 * without it, by a random key, so an answer must come back to the process that asked.
 */
export function servePermissionRounds(): PermissionRounds {
  if (processRounds) return processRounds;
  const key = launchEnvironment()[STATE_KEY_VARIABLE];
  if (key !== undefined && Buffer.byteLength(key) < 32)
    throw new Error(
      `${STATE_KEY_VARIABLE} is ${Buffer.byteLength(key)} bytes long; it signs the state of permission questions and must be at least 32 bytes (e.g. the output of \`openssl rand -base64 32\`), the same on every replica.`,
    );
  processRounds = new PermissionRounds(key);
  return processRounds;
}

/** The key of Quiver's permission question among a result's `inputRequests`. */
export const PERMISSION_INPUT = 'quiver_permission';

/** What a caller is asked for on a tool's (or a bridged server's) behalf. */
export type RelayedInputKind = 'elicitation' | 'sampling' | 'roots';

/** What a permission round carries to the next request, signed so the client cannot change it. */
interface PermissionRoundState {
  tool: string;
  /** sha256 of the call's arguments as sent: the retry must be the same call. */
  args: string;
  /** Questions answered in earlier rounds (sha256 of the question) with their answers. */
  answered: Array<{ question: string; answer: unknown }>;
  /** The permission question the previous round asked, answered by `quiver_permission`; '' when none. */
  pending: string;
  /** Relayed questions the previous round asked, each answered by the input response of its key. */
  relayed?: Array<{ key: string; kind: RelayedInputKind; question: string }>;
}

/**
 * Revision 2026-07-28 has no server-to-client requests: a permission ask during a tools/call is
 * answered by returning an input-required result carrying the question, and the client calls
 * again with the person's answer and the state the result carried. The state is HMAC-signed
 * (bound to the method and the caller) so a tampered or foreign state is refused; an answer
 * counts only for the exact question it answers, so what the person approved is what runs.
 */
export class PermissionRounds {
  readonly #codec: RequestStateCodec<PermissionRoundState>;

  /** `key`: shared by every replica that may receive the retry (random per process when absent). */
  constructor(key: string | undefined) {
    this.#codec = createRequestStateCodec<PermissionRoundState>({
      key: key ?? randomBytes(32),
      ttlSeconds: 3600,
      // The caller is the token's subject: people signed in through one OAuth client share its client id.
      bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}\0${subjectOf(ctx)}`,
    });
  }

  /** For `ServerOptions.requestState.verify`: refuses a state this server did not sign. */
  readonly verify = (state: string, ctx: ServerContext): Promise<PermissionRoundState> =>
    this.#codec.verify(state, ctx);

  /** The round of one tools/call request: answers from earlier rounds, and the first new question. */
  begin(tool: string, args: unknown, ctx: ServerContext): PermissionRound {
    const argsDigest = digest(JSON.stringify(args ?? {}));
    const state = ctx.mcpReq.requestState<PermissionRoundState>();
    const answered = new Map<string, unknown>();
    if (state !== undefined) {
      if (state.tool !== tool || state.args !== argsDigest)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `requestState belongs to another request (${state.tool.startsWith('prompt ') ? state.tool : `the tool ${state.tool}`}): send it back only with the same ${state.tool.startsWith('prompt ') ? 'prompt' : 'tool'} and arguments it was returned for.`,
        );
      for (const { question, answer } of state.answered) answered.set(question, answer);
      const answer = elicitResultOf(ctx.mcpReq.inputResponses?.[PERMISSION_INPUT]);
      // A missing or malformed answer is not an error: the question is asked again.
      if (answer && state.pending !== '') answered.set(state.pending, answer);
      for (const { key, kind, question } of state.relayed ?? []) {
        const relayed = relayedAnswerOf(kind, ctx.mcpReq.inputResponses?.[key]);
        if (relayed !== undefined) answered.set(question, relayed);
      }
    }
    return new PermissionRound(this.#codec, tool, argsDigest, answered);
  }
}

export class PermissionRound {
  #asked: { form: ElicitRequestFormParams; question: string } | undefined;
  readonly #relayed = new Map<string, { kind: RelayedInputKind; question: string; request: InputRequest }>();

  constructor(
    private readonly codec: RequestStateCodec<PermissionRoundState>,
    private readonly tool: string,
    private readonly args: string,
    private readonly answered: Map<string, unknown>,
  ) {}

  /** The channel the permission resolver asks through: an earlier answer, or the question is kept and the call denied for now. */
  readonly elicit: ElicitForm = async (form) => {
    const question = digest(JSON.stringify(form));
    const answer = this.answered.get(question);
    if (answer) return answer as ElicitResult;
    this.#asked ??= { form, question };
    return { action: 'cancel' };
  };

  /**
   * A question relayed to the caller (a tool's own, or a bridged server's, already rendered as
   * the person will see it): the answer an earlier round brought for exactly this question, or
   * undefined after keeping it for this round's input-required result. `asker` names who asks,
   * so the same words from another asker are another question.
   */
  relay(
    kind: RelayedInputKind,
    asker: string,
    params: Record<string, unknown>,
    key: string | undefined,
  ): { answer: unknown } | undefined {
    const question = digest(JSON.stringify([kind, asker, params]));
    if (this.answered.has(question)) return { answer: this.answered.get(question) };
    for (const pending of this.#relayed.values()) if (pending.question === question) return undefined;
    this.#relayed.set(this.#freeKey(key ?? kind), { kind, question, request: inputRequestOf(kind, params) });
    return undefined;
  }

  /** True once the call asked something the caller answers in its next request. */
  get asking(): boolean {
    return this.#asked !== undefined || this.#relayed.size > 0;
  }

  /** The input-required result when the call asked a question nobody answered yet. */
  async inputRequired(ctx: ServerContext): Promise<InputRequiredResult | undefined> {
    if (!this.asking) return undefined;
    const requestState = await this.codec.mint(
      {
        tool: this.tool,
        args: this.args,
        answered: [...this.answered].map(([question, answer]) => ({ question, answer })),
        pending: this.#asked?.question ?? '',
        relayed: [...this.#relayed].map(([key, { kind, question }]) => ({ key, kind, question })),
      },
      ctx,
    );
    const inputRequests: Record<string, InputRequest> = {};
    if (this.#asked) {
      const { mode: _mode, ...form } = this.#asked.form;
      inputRequests[PERMISSION_INPUT] = inputRequired.elicit(form);
    }
    for (const [key, { request }] of this.#relayed) inputRequests[key] = request;
    return inputRequired({ inputRequests, requestState });
  }

  #freeKey(wanted: string): string {
    const taken = (key: string) => key === PERMISSION_INPUT || this.#relayed.has(key);
    if (!taken(wanted)) return wanted;
    let n = 2;
    while (taken(`${wanted}_${n}`)) n++;
    return `${wanted}_${n}`;
  }
}

function inputRequestOf(kind: RelayedInputKind, params: Record<string, unknown>): InputRequest {
  if (kind === 'roots') return inputRequired.listRoots();
  if (kind === 'sampling')
    return inputRequired.createMessage(params as Parameters<typeof inputRequired.createMessage>[0]);
  const { mode: _mode, ...form } = params;
  return inputRequired.elicit(form as Parameters<typeof inputRequired.elicit>[0]);
}

/** A relayed question's answer as the caller sent it, or undefined when it is not one (asked again). */
function relayedAnswerOf(kind: RelayedInputKind, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (kind === 'elicitation') return elicitResultOf(value);
  if (kind === 'roots') return Array.isArray((value as { roots?: unknown }).roots) ? value : undefined;
  const content = (value as { content?: unknown }).content;
  return content && typeof content === 'object' ? value : undefined;
}

/** The signed-in caller's `sub` claim ('' without serve.auth or without the claim). */
function subjectOf(ctx: ServerContext): string {
  const payload = ctx.http?.authInfo?.extra?.payload as { sub?: unknown } | undefined;
  return typeof payload?.sub === 'string' ? payload.sub : '';
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

function elicitResultOf(value: unknown): ElicitResult | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const action = (value as { action?: unknown }).action;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return undefined;
  const content = (value as { content?: unknown }).content;
  return content && typeof content === 'object'
    ? { action, content: content as ElicitResult['content'] }
    : { action };
}
