import { createHash, randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  type ElicitRequestFormParams,
  type ElicitResult,
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

/** What a permission round carries to the next request, signed so the client cannot change it. */
interface PermissionRoundState {
  tool: string;
  /** sha256 of the call's arguments as sent: the retry must be the same call. */
  args: string;
  /** Questions answered in earlier rounds (sha256 of the form) with their answers. */
  answered: Array<{ question: string; answer: ElicitResult }>;
  /** The question the previous round asked, answered by this request's input response. */
  pending: string;
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
      bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
    });
  }

  /** For `ServerOptions.requestState.verify`: refuses a state this server did not sign. */
  readonly verify = (state: string, ctx: ServerContext): Promise<PermissionRoundState> =>
    this.#codec.verify(state, ctx);

  /** The round of one tools/call request: answers from earlier rounds, and the first new question. */
  begin(tool: string, args: unknown, ctx: ServerContext): PermissionRound {
    const argsDigest = digest(JSON.stringify(args ?? {}));
    const state = ctx.mcpReq.requestState<PermissionRoundState>();
    const answered = new Map<string, ElicitResult>();
    if (state !== undefined) {
      if (state.tool !== tool || state.args !== argsDigest)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `requestState belongs to another call (of ${state.tool}): send it back only with the same tool and arguments it was returned for.`,
        );
      for (const { question, answer } of state.answered) answered.set(question, answer);
      const answer = elicitResultOf(ctx.mcpReq.inputResponses?.[PERMISSION_INPUT]);
      // A missing or malformed answer is not an error: the question is asked again.
      if (answer) answered.set(state.pending, answer);
    }
    return new PermissionRound(this.#codec, tool, argsDigest, answered);
  }
}

export class PermissionRound {
  #asked: { form: ElicitRequestFormParams; question: string } | undefined;

  constructor(
    private readonly codec: RequestStateCodec<PermissionRoundState>,
    private readonly tool: string,
    private readonly args: string,
    private readonly answered: Map<string, ElicitResult>,
  ) {}

  /** The channel the permission resolver asks through: an earlier answer, or the question is kept and the call denied for now. */
  readonly elicit: ElicitForm = async (form) => {
    const question = digest(JSON.stringify(form));
    const answer = this.answered.get(question);
    if (answer) return answer;
    this.#asked ??= { form, question };
    return { action: 'cancel' };
  };

  /** The input-required result when the call asked a question nobody answered yet. */
  async inputRequired(ctx: ServerContext): Promise<InputRequiredResult | undefined> {
    if (!this.#asked) return undefined;
    const requestState = await this.codec.mint(
      {
        tool: this.tool,
        args: this.args,
        answered: [...this.answered].map(([question, answer]) => ({ question, answer })),
        pending: this.#asked.question,
      },
      ctx,
    );
    const { mode: _mode, ...form } = this.#asked.form;
    return inputRequired({ inputRequests: { [PERMISSION_INPUT]: inputRequired.elicit(form) }, requestState });
  }
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
