import {
  type CleanedText,
  cleanDefinitionText,
  MAX_DESCRIPTION_CHARS,
  MAX_SCHEMA_TEXT_CHARS,
  MAX_TITLE_CHARS,
} from './clean-text.js';
import type { McpToolDefinition } from './mcp-tool.js';

export interface CleanedDefinition {
  definition: McpToolDefinition;
  /** Where hidden or control characters were taken out, e.g. `description`, `inputSchema`. */
  cleaned: string[];
  /** Where text was cut to its cap. */
  cut: string[];
}

/** Keys of a JSON Schema whose text is prose for the model, and so capped. */
const PROSE_KEYS = new Set(['description', 'title']);

function cleanSchema(value: unknown, key: string | undefined, note: (result: CleanedText) => void): unknown {
  if (typeof value === 'string') {
    const result = cleanDefinitionText(
      value,
      PROSE_KEYS.has(key ?? '') ? MAX_SCHEMA_TEXT_CHARS : Number.POSITIVE_INFINITY,
    );
    note(result);
    return result.text;
  }
  if (Array.isArray(value)) return value.map((item) => cleanSchema(item, undefined, note));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([inner, innerValue]) => [inner, cleanSchema(innerValue, inner, note)]),
  );
}

/**
 * The definition the model is offered: descriptions, titles and every string of the schemas
 * without escapes, controls, tag or zero-width characters, prose capped with a marker. The
 * server's own definition (what is pinned) is left as it was.
 */
export function cleanDefinition(definition: McpToolDefinition): CleanedDefinition {
  const cleaned = new Set<string>();
  const cut = new Set<string>();
  const noter = (field: string) => (result: CleanedText) => {
    if (result.cleaned) cleaned.add(field);
    if (result.cut > 0) cut.add(field);
  };
  const copy: Record<string, unknown> = { ...definition };
  if (typeof definition.description === 'string') {
    const result = cleanDefinitionText(definition.description, MAX_DESCRIPTION_CHARS);
    noter('description')(result);
    copy.description = result.text;
  }
  if (typeof definition.title === 'string') {
    const result = cleanDefinitionText(definition.title, MAX_TITLE_CHARS);
    noter('title')(result);
    copy.title = result.text;
  }
  if (definition.annotations !== undefined)
    copy.annotations = cleanSchema(definition.annotations, undefined, noter('annotations'));
  copy.inputSchema = cleanSchema(definition.inputSchema, undefined, noter('inputSchema'));
  if (definition.outputSchema !== undefined)
    copy.outputSchema = cleanSchema(definition.outputSchema, undefined, noter('outputSchema'));
  return { definition: copy as McpToolDefinition, cleaned: [...cleaned], cut: [...cut] };
}
