import type { RelayedRequest } from './client-relay.js';
import { boundedVisibleText, visibleText } from './visible-text.js';

/** How much of a relayed message or field text a question shows. */
const MAX_RELAYED_MESSAGE_CHARS = 2_000;
const MAX_RELAYED_FIELD_CHARS = 200;

/** Quiver's own permission answers, as a relayed form may not offer them. */
const QUIVER_ANSWERS = new Set(['once', 'session', 'project', 'deny']);
/** Words of Quiver's own permission question, as a relayed form may not show them. */
const QUIVER_LABELS = [
  'allow once',
  'always allow',
  'allow for this session',
  'allow for this project',
  'needs your approval',
];

/** Who asks a relayed question, so a person never mistakes it for Quiver's own. */
export function relayedAsker(request: Pick<RelayedRequest, 'server' | 'toolName'>): string {
  return request.server === undefined
    ? `Tool "${visibleText(request.toolName)}"`
    : `MCP server "${visibleText(request.server)}"`;
}

export type RelayedQuestion =
  | { ok: true; message: string; requestedSchema: Record<string, unknown> }
  | { ok: false; reason: string };

type FieldSchema = Record<string, unknown>;

/** Raised while cleaning a form that may not be shown; its message is the reason. */
class Refused extends Error {}

/**
 * Text as a person would read it, for comparing with Quiver's words: compatibility forms folded
 * (full-width letters, ligatures), case ignored, and every run of spaces, punctuation and
 * invisible characters read as one space.
 */
function asRead(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A word mixing Latin letters with look-alike letters of another script ("Аllow" with a Cyrillic А). */
const MIXED_SCRIPT_WORD =
  /(?=\p{L}*\p{Script=Latin})(?=\p{L}*[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}])\p{L}+/u;

/** Refuses text (a title, a choice) that reads as Quiver's own permission question. */
function checkNotQuiver(text: string, asker: string): void {
  const read = asRead(text);
  if (QUIVER_LABELS.some((label) => read.includes(label)))
    throw new Refused(
      `its question is shaped like Quiver's own permission form (the answers once, session, project, deny or their labels), which ${asker} may not imitate`,
    );
  const mixed = MIXED_SCRIPT_WORD.exec(text.normalize('NFKC'));
  if (mixed !== null)
    throw new Refused(
      `the word "${visibleText(mixed[0])}" in its form mixes Latin letters with look-alike letters of another script, so it reads as a word it is not`,
    );
}

/** A title or description as shown: checked, escaped, bounded. */
function shownText(text: unknown, asker: string): string | undefined {
  if (typeof text !== 'string') return undefined;
  checkNotQuiver(text, asker);
  return boundedVisibleText(text, MAX_RELAYED_FIELD_CHARS);
}

/**
 * A value the person picks and the server receives back as it is: it cannot be escaped, so one
 * holding invisible characters is refused rather than shown.
 */
function choiceValue(value: unknown, key: string, asker: string): unknown {
  if (typeof value !== 'string') return value;
  if (visibleText(value) !== value)
    throw new Refused(
      `the choice "${visibleText(value)}" of the field "${key}" holds invisible or control characters`,
    );
  checkNotQuiver(value, asker);
  return value;
}

/** `enum`, `enumNames` and `oneOf`/`anyOf` choices of a field (or of its `items`), cleaned. */
function cleanChoices(source: FieldSchema, key: string, asker: string): FieldSchema {
  const cleaned: FieldSchema = {};
  const answers: string[] = [];
  const remember = (value: unknown) => {
    if (typeof value === 'string' && QUIVER_ANSWERS.has(asRead(value))) answers.push(asRead(value));
  };
  if (Array.isArray(source.enum))
    cleaned.enum = source.enum.map((value) => {
      remember(value);
      return choiceValue(value, key, asker);
    });
  if (Array.isArray(source.enumNames))
    cleaned.enumNames = source.enumNames.map((name) => {
      remember(name);
      return shownText(name, asker) ?? name;
    });
  for (const list of ['oneOf', 'anyOf'] as const) {
    const entries = source[list];
    if (!Array.isArray(entries)) continue;
    cleaned[list] = entries.map((entry) => {
      if (typeof entry !== 'object' || entry === null)
        throw new Refused(`a choice of the field "${key}" is not a schema`);
      const { const: value, title } = entry as FieldSchema;
      remember(value);
      remember(title);
      const shownTitle = shownText(title, asker);
      return {
        ...(value === undefined ? {} : { const: choiceValue(value, key, asker) }),
        ...(shownTitle === undefined ? {} : { title: shownTitle }),
      };
    });
  }
  if (new Set(answers).size >= 2)
    throw new Refused(
      `its question is shaped like Quiver's own permission form (the answers once, session, project, deny or their labels), which ${asker} may not imitate`,
    );
  return cleaned;
}

const NUMERIC_KEYS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

function shownDefault(value: unknown): unknown {
  if (typeof value === 'string') return boundedVisibleText(value, MAX_RELAYED_FIELD_CHARS);
  if (Array.isArray(value))
    return value.map((entry) =>
      typeof entry === 'string' ? boundedVisibleText(entry, MAX_RELAYED_FIELD_CHARS) : entry,
    );
  return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

/**
 * One field as relayed: only what MCP's form schemas define (type, title, description, default,
 * choices, bounds, format), every text a client could show escaped, the title led by the asker's
 * name; anything else is dropped, since a client may show keys Quiver does not know.
 */
function cleanField(key: string, field: unknown, asker: string): FieldSchema {
  if (typeof field !== 'object' || field === null || Array.isArray(field))
    throw new Refused(`the field "${key}" is not a schema`);
  const source = field as FieldSchema;
  checkNotQuiver(key, asker);
  const title = shownText(source.title, asker) ?? key;
  const cleaned: FieldSchema = { title: `${asker}: ${title}` };
  if (typeof source.type === 'string') cleaned.type = source.type;
  const description = shownText(source.description, asker);
  if (description !== undefined) cleaned.description = description;
  const shown = shownDefault(source.default);
  if (shown !== undefined) cleaned.default = shown;
  Object.assign(cleaned, cleanChoices(source, key, asker));
  if (typeof source.items === 'object' && source.items !== null && !Array.isArray(source.items)) {
    const items = source.items as FieldSchema;
    cleaned.items = {
      ...(typeof items.type === 'string' ? { type: items.type } : {}),
      ...cleanChoices(items, key, asker),
    };
  }
  for (const bound of NUMERIC_KEYS) if (typeof source[bound] === 'number') cleaned[bound] = source[bound];
  if (typeof source.format === 'string' && FORMATS.has(source.format)) cleaned.format = source.format;
  return cleaned;
}

/**
 * A question a bridged server (or a tool) asks a person, as it is relayed: the message escaped
 * and bounded after the asker's name; each field reduced to what MCP's form schemas define, its
 * title led by the asker's name, every title, description, default and choice label escaped; and
 * refused when it imitates Quiver's own permission form (two of its answers once/session/project/
 * deny, or its labels, compared as a person reads them: any case, full-width or spaced), when a
 * word mixes Latin with look-alike letters of another script, or when a field name or a choice
 * value (which goes back to the server as it is, so cannot be escaped) holds invisible
 * characters. The answer goes to the server, but a person who believes they answered Quiver has
 * been misled about what they approved.
 */
export function renderRelayedQuestion(request: RelayedRequest): RelayedQuestion {
  const asker = relayedAsker(request);
  const message = typeof request.params.message === 'string' ? request.params.message : '';
  const schema = (request.params.requestedSchema ?? {}) as FieldSchema;
  const properties = schema.properties ?? {};
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties))
    return { ok: false, reason: 'its requested schema has no object of properties' };
  const cleanedProperties: Record<string, FieldSchema> = {};
  try {
    for (const [key, field] of Object.entries(properties)) {
      if (visibleText(key) !== key)
        throw new Refused(`the field name "${visibleText(key)}" holds invisible or control characters`);
      cleanedProperties[key] = cleanField(key, field, asker);
    }
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key): key is string => typeof key === 'string' && key in cleanedProperties)
    : [];
  return {
    ok: true,
    message: `${asker} asks: ${boundedVisibleText(message, MAX_RELAYED_MESSAGE_CHARS)}`,
    requestedSchema: {
      type: 'object',
      properties: cleanedProperties,
      ...(required.length > 0 ? { required } : {}),
    },
  };
}
