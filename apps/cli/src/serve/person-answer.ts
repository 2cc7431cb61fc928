/**
 * How long serve waits for its client to answer a request that a person answers (a permission
 * ask, a relayed elicitation or sampling request, a definition review). The SDK's default of
 * 60 s fails a person who reads before answering; the call's own cancellation still ends the
 * wait at once.
 */
export const PERSON_ANSWER_TIMEOUT_MS = 60 * 60_000;

/** Request options for a request a person answers. */
export function personAnswerOptions(signal: AbortSignal): { signal: AbortSignal; timeout: number } {
  return { signal, timeout: PERSON_ANSWER_TIMEOUT_MS };
}
