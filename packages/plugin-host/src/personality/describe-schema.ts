import type { z } from 'zod';
import { PERSONALITY_DEFAULTS, personalitySchema } from './personality-schema.js';

export interface PersonalityKeyDescription {
  /** Dotted key path; `<name>` stands for a key of a map (e.g. `mcpServers.<server>.includeTools`). */
  key: string;
  /** Readable type, e.g. `string[]`, `boolean | 'auto'`, `map<server, true | object>`. */
  type: string;
  description: string;
  /** The value used when no personality in the `extends` chain sets the key; undefined when there is none. */
  default: unknown;
}

interface Node {
  def: Record<string, unknown> & { type: string };
  description?: string;
  isInt?: boolean;
}

/** What the keys of each map name, by the map's key path. */
const MAP_KEY_NAMES: Record<string, string> = {
  mcpServers: 'server',
  agents: 'agent',
  modelProfiles: 'profile',
  secrets: 'tool',
  'plugins[].config': 'setting',
};

/** A list written as a plain list or as `{ add, remove }` (personality-schema.ts `list`): its array option. */
function listArray(node: Node): Node | undefined {
  const def = node.def;
  if (def.type !== 'union') return undefined;
  const [array, edit] = def.options as Node[];
  if (array?.def.type !== 'array' || edit === undefined) return undefined;
  const keys = Object.keys((unwrap(edit).def.shape as Record<string, Node> | undefined) ?? {});
  return keys.includes('add') && keys.every((key) => key === 'add' || key === 'remove') ? array : undefined;
}

function unwrap(node: Node): Node {
  let current = node;
  while (current.def.innerType !== undefined) current = current.def.innerType as Node;
  return current;
}

/** The description is on the outermost wrapper that has one. */
function descriptionOf(node: Node): string {
  let current: Node | undefined = node;
  while (current !== undefined) {
    if (current.description) return current.description;
    current = current.def.innerType as Node | undefined;
  }
  return '';
}

function typeName(node: Node): string {
  const inner = unwrap(node);
  const def = inner.def;
  switch (def.type) {
    case 'number':
      return inner.isInt ? 'integer' : 'number';
    case 'enum':
      return Object.values(def.entries as Record<string, string>)
        .map((value) => `'${value}'`)
        .join(' | ');
    case 'literal':
      return (def.values as unknown[])
        .map((value) => (typeof value === 'string' ? `'${value}'` : String(value)))
        .join(' | ');
    case 'array': {
      const element = typeName(def.element as Node);
      return element.includes(' | ') ? `(${element})[]` : `${element}[]`;
    }
    case 'record':
      return `map<string, ${typeName(def.valueType as Node)}>`;
    case 'union': {
      const array = listArray(inner);
      if (array !== undefined) {
        const edit = Object.keys(unwrap((def.options as Node[])[1] as Node).def.shape as object).join(', ');
        return `${typeName(array)} | { ${edit} }`;
      }
      return (def.options as Node[]).map(typeName).join(' | ');
    }
    default:
      return def.type;
  }
}

function objectOf(node: Node): Node | undefined {
  const inner = unwrap(node);
  if (inner.def.type === 'object') return inner;
  if (inner.def.type === 'union')
    return (inner.def.options as Node[]).map(objectOf).find((option) => option !== undefined);
  return undefined;
}

function defaultAt(key: string): unknown {
  let current: unknown = PERSONALITY_DEFAULTS;
  for (const segment of key.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return structuredClone(current);
}

function describeObject(object: Node, prefix: string, into: PersonalityKeyDescription[]): void {
  for (const [name, field] of Object.entries(object.def.shape as Record<string, Node>)) {
    const key = `${prefix}${name}`;
    const type = typeName(field);
    const wrapped = unwrap(field);
    const inner = listArray(wrapped) ?? wrapped;
    into.push({
      key,
      type:
        inner.def.type === 'record'
          ? type.replace('map<string,', `map<${MAP_KEY_NAMES[key] ?? 'name'},`)
          : type,
      description: descriptionOf(field),
      default: defaultAt(key),
    });
    const nested = objectOf(field);
    if (nested !== undefined && inner.def.type === 'object') describeObject(nested, `${key}.`, into);
    if (inner.def.type === 'array') {
      const element = objectOf(inner.def.element as Node);
      if (element !== undefined) describeObject(element, `${key}[].`, into);
    }
    if (inner.def.type === 'record' && listArray(unwrap(inner.def.valueType as Node)) === undefined) {
      const value = objectOf(inner.def.valueType as Node);
      if (value !== undefined) describeObject(value, `${key}.<${MAP_KEY_NAMES[key] ?? 'name'}>.`, into);
    }
  }
}

/** Every key a personality file may set, in schema order, for generated docs and `quiver` help. */
export function describePersonalitySchema(): PersonalityKeyDescription[] {
  const entries: PersonalityKeyDescription[] = [];
  describeObject(personalitySchema as unknown as Node & z.ZodType, '', entries);
  return entries;
}
