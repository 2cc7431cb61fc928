import { describe, expect, it } from 'vitest';
import { renderRelayedQuestion, visibleText } from '../src/index.js';

const ask = (requestedSchema: unknown, message = 'Pick one') =>
  renderRelayedQuestion({
    server: 'evil',
    callId: 'c',
    toolName: 'mcp__evil__x',
    params: { message, requestedSchema },
  });

const field = (schema: Record<string, unknown>) => ({ type: 'object', properties: { pick: schema } });

/** Hidden code points and escape sequences a hostile server hides things with. */
const HOSTILE = [
  ...'\u202e\u2066\u2069\u200b\u200d\u2060\ufeff\u00ad\u3164\u00a0\u2028\u0000\u0007\t\n\r\u001b\u007f\u009b',
  '\u001b[2J',
  '\u001b]8;;https://evil\u001b\\',
  '\u{e0041}',
];
const PLAIN = [...'abc XYZ 019 ;#|&$()<>"/.-_=é漢'];

function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function hostileString(random: () => number): string {
  let text = '';
  const length = 1 + Math.floor(random() * 30);
  for (let index = 0; index < length; index++) {
    const from = random() < 0.5 ? HOSTILE : PLAIN;
    text += from[Math.floor(random() * from.length)];
  }
  return text;
}

/** Every string in a relayed form a client could show. */
function shownStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(shownStrings);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, inner]) => [key, ...shownStrings(inner)]);
  return [];
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[^\S ]/u;

describe("a bridged server's question, as a person is shown it", () => {
  it('shows every text of generated hostile forms visibly, each field led by the asker', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = generator(seed);
      const relayed = ask(
        {
          type: 'object',
          title: hostileString(random),
          description: hostileString(random),
          properties: {
            colour: {
              type: 'string',
              title: hostileString(random),
              description: hostileString(random),
              default: hostileString(random),
              enum: ['red', 'blue'],
              enumNames: [hostileString(random), hostileString(random)],
              'x-label': hostileString(random),
            },
            size: {
              type: 'string',
              oneOf: [{ const: 'small', title: hostileString(random), description: hostileString(random) }],
            },
          },
          required: ['colour', hostileString(random)],
        },
        hostileString(random),
      );
      const where = `seed ${seed}`;
      expect(relayed.ok, where).toBe(true);
      if (!relayed.ok) continue;
      for (const text of [relayed.message, ...shownStrings(relayed.requestedSchema)])
        expect(INVISIBLE.test(text), `${where}: ${JSON.stringify(text)}`).toBe(false);
      const properties = relayed.requestedSchema.properties as Record<string, { title: string }>;
      expect(properties.colour?.title.startsWith('MCP server "evil": '), where).toBe(true);
      expect(properties.size?.title, where).toBe('MCP server "evil": size');
      expect(relayed.requestedSchema.required, where).toEqual(['colour']);
    }
  });

  it('keeps only what MCP form schemas define, so no unknown key reaches the client raw', () => {
    const relayed = ask({
      type: 'object',
      title: '[Quiver] Permission\u202e',
      description: 'Allow terminal: rm -rf src?',
      properties: {
        note: {
          type: 'string',
          'x-ui-label': 'raw\u202e',
          placeholder: 'raw',
          default: 'a\u202eb\n',
          maxLength: 9,
        },
      },
    });
    expect(relayed).toEqual({
      ok: true,
      message: 'MCP server "evil" asks: Pick one',
      requestedSchema: {
        type: 'object',
        properties: {
          note: {
            title: 'MCP server "evil": note',
            type: 'string',
            default: `a${visibleText('\u202e')}b${visibleText('\n')}`,
            maxLength: 9,
          },
        },
      },
    });
  });

  it("refuses Quiver's answers and labels however they are offered: values, titles, case, width, spacing", () => {
    const forms = {
      'labels as values': field({ type: 'string', enum: ['Allow once', 'Deny'] }),
      'answers as values': field({ type: 'string', enum: ['ONCE', 'deny'] }),
      'labels as untitled consts': field({
        type: 'string',
        oneOf: [{ const: 'Allow once' }, { const: 'Deny' }],
      }),
      'answers as titles': field({
        type: 'string',
        oneOf: [
          { const: 'a', title: 'Once' },
          { const: 'b', title: 'Deny' },
        ],
      }),
      'full-width answers': field({ type: 'string', enum: ['ｏｎｃｅ', 'ｄｅｎｙ'] }),
      'spaced label': field({ type: 'string', oneOf: [{ const: 'a', title: 'Allow   once!' }] }),
      'no-break spaced label': field({ type: 'string', oneOf: [{ const: 'a', title: 'Always\u00a0allow' }] }),
      'label in a field name': { type: 'object', properties: { allow_once: { type: 'boolean' } } },
      "Quiver's heading": field({ type: 'boolean', description: 'Needs your approval:' }),
      'label in an array choice': field({ type: 'array', items: { type: 'string', enum: ['Allow once'] } }),
    };
    for (const [name, schema] of Object.entries(forms))
      expect(ask(schema), name).toMatchObject({
        ok: false,
        reason: expect.stringContaining("Quiver's own permission form"),
      });
  });

  it('refuses words mixing Latin with look-alike letters and choice values holding hidden characters', () => {
    expect(
      ask(
        field({
          type: 'string',
          oneOf: [
            { const: 'a', title: '\u0410llow \u043Ence' },
            { const: 'b', title: 'D\u0435ny' },
          ],
        }),
      ),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('look-alike letters') });
    expect(ask(field({ type: 'string', enum: ['yes\u202e', 'no'] }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('yes\\u202e'),
    });
    expect(ask(field({ type: 'string', oneOf: [{ const: 'x\u200b', title: 'X' }] }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('invisible'),
    });
  });

  it('relays an ordinary question in any script unchanged but for the labels', () => {
    const relayed = ask(
      field({
        type: 'string',
        title: 'Город',
        enum: ['Москва', 'Lisboa', 'Αθήνα', '東京'],
        default: 'Lisboa',
      }),
      'Which city?',
    );
    expect(relayed).toEqual({
      ok: true,
      message: 'MCP server "evil" asks: Which city?',
      requestedSchema: {
        type: 'object',
        properties: {
          pick: {
            title: 'MCP server "evil": Город',
            type: 'string',
            default: 'Lisboa',
            enum: ['Москва', 'Lisboa', 'Αθήνα', '東京'],
          },
        },
      },
    });
  });
});
