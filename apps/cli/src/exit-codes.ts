/** Exit codes: 0 ok, 1 the tool call failed, 2 usage or config error. */
export const EXIT = { ok: 0, toolFailed: 1, usage: 2 } as const;
