import { describe, expect, it } from 'vitest';
import { loadClientSdk } from '../src/client-sdk.js';
import { callToolResultSchema } from '../src/send-tool-call.js';

/**
 * A bridged call's result is checked by a short way for plain text results and by the SDK's own
 * `CallToolResult` parse for anything else: what comes out (the value, or the issues a malformed
 * result is refused with) must be what the SDK's parse alone gives.
 */
const results: unknown[] = [
  { content: [{ type: 'text', text: 'Echo: bench' }] },
  { content: [] },
  {
    content: [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ],
    isError: true,
  },
  { content: [{ type: 'text', text: 'x' }], structuredContent: { length: 3, nested: { list: [1, 'two'] } } },
  Object.assign(Object.create(null), { content: [{ type: 'text', text: 'no prototype' }] }),
  // Not plain text: the SDK's parse decides.
  {},
  { isError: false },
  { content: [{ type: 'text', text: 'x', annotations: { audience: ['user'] } }] },
  { content: [{ type: 'text', text: 'x', unknown: 1 }] },
  { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
  { content: [{ type: 'text', text: 'x' }], _meta: { progressToken: 1 } },
  { content: [{ type: 'text', text: 'x' }], extra: 'kept or not, as the SDK does' },
  // Malformed.
  { content: [{ type: 'text', text: 5 }] },
  { content: [{ type: 'text' }] },
  { content: 'text' },
  { content: [null] },
  { content: [{ type: 'text', text: 'x' }], isError: 'yes' },
  { content: [{ type: 'text', text: 'x' }], structuredContent: [1, 2] },
  { content: [{ type: 'text', text: 'x' }], structuredContent: null },
  null,
  'text',
  [],
];

describe('the check of a bridged result', () => {
  it('gives what the SDK’s CallToolResult parse gives, for plain text, other and malformed results', async () => {
    const sdk = await loadClientSdk();
    const full = sdk.specTypeSchemas.CallToolResult['~standard'];
    const checked = callToolResultSchema()['~standard'];
    let refused = 0;
    for (const result of results) {
      const ours = await checked.validate(result);
      const theirs = await full.validate(result);
      expect({ result, ours }).toEqual({ result, ours: theirs });
      if (theirs.issues !== undefined) refused += 1;
    }
    expect(refused).toBe(8);
  });

  it('refuses a malformed result with the SDK’s message naming the field', async () => {
    await loadClientSdk();
    const outcome = await callToolResultSchema()['~standard'].validate({
      content: [{ type: 'text', text: 5 }],
    });
    expect(outcome.issues?.[0]?.path).toEqual(['content', 0]);
  });
});
