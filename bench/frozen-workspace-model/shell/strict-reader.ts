/**
 * An independent reader for the provable subset of bash: plain and quoted words, `&&`, `||`,
 * `|`, `;`, newlines, simple redirections with literal targets, here-documents with a fully
 * quoted delimiter, comments where bash starts one, and leading assignments. It either accounts
 * for every character of the command or names the first construct it does not model, with its
 * range (offsets into the JavaScript string). It shares nothing with the tree-sitter walk, so the
 * two readings can be compared.
 */

export interface ReadWord {
  /** The word after quote removal. */
  value: string;
  start: number;
  end: number;
  /** An unquoted `*`, `?` or `[`: bash may replace the word by file names. */
  glob: boolean;
}

export interface ReadRedirect {
  /** `>`, `>>`, `<`, `&>`, `&>>`, `>&`, `<&` or `<<` (a here-document). */
  operator: string;
  descriptor?: string;
  /** The literal target after quote removal; a descriptor number for `>&`, the delimiter for `<<`. */
  target: string;
  start: number;
  end: number;
}

export interface ReadCommand {
  /** `NAME=value` prefixes, value after quote removal. */
  assignments: Array<{ name: string; value: string; start: number; end: number }>;
  words: ReadWord[];
  redirects: ReadRedirect[];
  start: number;
  end: number;
}

export interface UnprovenConstruct {
  /** A short name of the construct (`command substitution`, `control character U+000B`, …). */
  construct: string;
  start: number;
  end: number;
}

export type StrictReading =
  | { proven: true; commands: ReadCommand[] }
  | ({ proven: false } & UnprovenConstruct);

const PLAIN = /[A-Za-z0-9_@%+=:,./^-]/;
const RESERVED = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'while',
  'until',
  'for',
  'in',
  'function',
  'select',
  'time',
  'coproc',
  '!',
  '[[',
  ']]',
  '{',
  '}',
]);
const DELIMITER = /^[A-Za-z0-9_.-]+$/;

class Unproven extends Error {
  constructor(
    readonly construct: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(construct);
  }
}

/** Printable text that bash and the grammar both read as ordinary characters. */
function isOrdinaryText(char: string): boolean {
  return char === '\t' || char === '\n' || !/[\p{C}\p{Zl}\p{Zp}]/u.test(char);
}

function describe(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function readProvableShell(source: string): StrictReading {
  try {
    return { proven: true, commands: new StrictReader(source).read() };
  } catch (error) {
    if (error instanceof Unproven)
      return { proven: false, construct: error.construct, start: error.start, end: error.end };
    throw error;
  }
}

class StrictReader {
  #index = 0;
  #pending: Array<{ delimiter: string }> = [];
  readonly #commands: ReadCommand[] = [];

  constructor(readonly source: string) {
    // Plain printable ASCII, tabs and newlines need no closer look.
    if (!/[^\t\n\x20-\x7e]/.test(source)) return;
    for (let index = 0; index < source.length; index++) {
      const char = source[index] as string;
      if (char !== ' ' && !isOrdinaryText(char)) throw new Unproven(describe(char), index, index + 1);
      if (char === '\u00a0' || /\p{Zs}/u.test(char)) {
        if (char !== ' ') throw new Unproven(`blank-looking ${describe(char)}`, index, index + 1);
      }
    }
  }

  read(): ReadCommand[] {
    // `needCommand`: after `&&`, `||` or `|` a command must follow (newlines may come first).
    let needCommand = false;
    let sawCommand = false;
    for (;;) {
      this.#skipBlanks();
      const char = this.source[this.#index];
      if (char === undefined) break;
      if (char === '\n') {
        this.#newline();
        if (!needCommand) sawCommand = false;
        continue;
      }
      if (char === '#') {
        this.#skipComment();
        continue;
      }
      if (char === ';') {
        if (needCommand || !sawCommand) throw this.#here('";" without a command before it');
        this.#index++;
        sawCommand = false;
        continue;
      }
      if (this.#at('&&') || this.#at('||') || char === '|') {
        if (needCommand || !sawCommand) throw this.#here('an operator without a command before it');
        if (this.#at('|&')) throw this.#here('|&');
        this.#index += char === '|' && !this.#at('||') ? 1 : 2;
        needCommand = true;
        sawCommand = false;
        continue;
      }
      if (sawCommand) throw this.#here(`"${char}" after a command`);
      this.#commands.push(this.#command());
      sawCommand = true;
      needCommand = false;
    }
    if (needCommand)
      throw new Unproven('an operator without a command after it', this.source.length, this.source.length);
    if (this.#pending.length > 0)
      throw new Unproven('a here-document without its body', this.source.length, this.source.length);
    return this.#commands;
  }

  #at(text: string): boolean {
    return this.source.startsWith(text, this.#index);
  }

  #here(construct: string, length = 1): Unproven {
    return new Unproven(construct, this.#index, Math.min(this.source.length, this.#index + length));
  }

  /** An expansion, with a range that covers it as far as a plain scan can tell. */
  #expansion(index: number): Unproven {
    const rest = this.source.slice(index);
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(rest);
    let length = name ? name[0].length : 2;
    const open = rest[1];
    const close = open === '{' ? '}' : open === '(' ? ')' : open === "'" || open === '"' ? open : undefined;
    if (close) {
      let depth = 0;
      for (let position = 1; position < rest.length; position++) {
        const char = rest[position];
        if (char === '\\') position++;
        else if (char === open && close !== open) depth++;
        else if (char === close && (close === open ? position > 1 : --depth === 0)) {
          length = position + 1;
          break;
        }
      }
    }
    return new Unproven(
      expansionName(this.source, index),
      index,
      Math.min(this.source.length, index + length),
    );
  }

  #skipBlanks(): void {
    for (;;) {
      const char = this.source[this.#index];
      if (char === ' ' || char === '\t') this.#index++;
      else if (char === '\\' && this.source[this.#index + 1] === '\n') {
        if (this.#pending.length > 0) throw this.#here('a line continuation on a here-document line', 2);
        // A continuation joins lines: the text after it starts a new word only when a blank or an
        // operator came before it (`2>&1\<newline>x` would make the target `1x`).
        const before = this.source[this.#index - 1];
        const next = this.source[this.#index + 2];
        const separated =
          before === undefined || /[ \t\n;|&]/.test(before) || next === undefined || /[ \t\n]/.test(next);
        if (!separated) throw new Unproven('a line continuation inside a word', this.#index, this.#index + 2);
        this.#index += 2;
      } else return;
    }
  }

  #skipComment(): void {
    while (this.#index < this.source.length && this.source[this.#index] !== '\n') this.#index++;
  }

  /** Ends a line: the bodies of here-documents started on it follow, in order. */
  #newline(): void {
    this.#index++;
    for (const { delimiter } of this.#pending.splice(0)) {
      const bodyStart = this.#index;
      for (;;) {
        if (this.#index >= this.source.length)
          throw new Unproven(
            'a here-document without its closing delimiter line',
            bodyStart,
            this.source.length,
          );
        const lineEnd = this.source.indexOf('\n', this.#index);
        const end = lineEnd === -1 ? this.source.length : lineEnd;
        const line = this.source.slice(this.#index, end);
        this.#index = lineEnd === -1 ? end : end + 1;
        if (line === delimiter) break;
      }
    }
  }

  #command(): ReadCommand {
    const start = this.#index;
    const command: ReadCommand = { assignments: [], words: [], redirects: [], start, end: start };
    for (;;) {
      this.#skipBlanks();
      const char = this.source[this.#index];
      if (char === undefined || char === '\n' || char === ';' || char === '|' || this.#at('&&')) break;
      if (char === '#') break;
      const redirect = this.#redirect();
      if (redirect) {
        command.redirects.push(redirect);
        continue;
      }
      const wordStart = this.#index;
      const assignment =
        command.words.length === 0 ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(this.source.slice(wordStart)) : null;
      if (assignment) {
        this.#index += assignment[0].length;
        const value = this.#word(true);
        command.assignments.push({
          name: assignment[1] as string,
          value: value?.value ?? '',
          start: wordStart,
          end: this.#index,
        });
        continue;
      }
      if (command.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*(\[|\+=)/.test(this.source.slice(wordStart)))
        throw this.#here('an array or appending assignment');
      const word = this.#word(false);
      if (!word) throw this.#here(char === '&' ? 'a background job "&"' : `"${char}"`);
      if (command.words.length === 0) {
        if (RESERVED.has(this.source.slice(word.start, word.end)))
          throw new Unproven(`the reserved word "${word.value}"`, word.start, word.end);
        if (word.glob) throw new Unproven('a glob in the command name', word.start, word.end);
      }
      command.words.push(word);
    }
    command.end = this.#index;
    while (command.end > start && /[ \t]/.test(this.source[command.end - 1] as string)) command.end--;
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0)
      throw this.#here('an empty command');
    return command;
  }

  #redirect(): ReadRedirect | undefined {
    const start = this.#index;
    if (/^\d{2,}[<>]/.test(this.source.slice(start, start + 12)))
      throw new Unproven('a redirection of a descriptor above 9', start, start + 2);
    const match = /^(\d?)(&>>|&>|>>|>&|>\||>|<<<|<<|<&|<>|<)/.exec(this.source.slice(start));
    if (!match) return undefined;
    const [text, descriptor, operator] = match as unknown as [string, string, string];
    if (operator === '<<<' || operator === '<>' || operator === '>|')
      throw new Unproven(`the redirection ${operator}`, start, start + text.length);
    if (descriptor && (operator === '&>' || operator === '&>>'))
      throw new Unproven('a descriptor before &>', start, start + text.length);
    this.#index += text.length;
    if (operator === '>&' || operator === '<&') {
      const target = /^(\d|-)(?=[\s;|&<>]|$)/.exec(this.source.slice(this.#index));
      if (!target)
        throw new Unproven(`${operator} to something other than a descriptor`, start, this.#index + 1);
      this.#index += 1;
      return {
        operator,
        ...(descriptor ? { descriptor } : {}),
        target: target[1] as string,
        start,
        end: this.#index,
      };
    }
    if (operator === '<<') return this.#hereDocument(start, descriptor);
    this.#skipBlanks();
    const word = this.#word(false);
    if (!word) throw new Unproven('a redirection without a literal target', start, this.#index + 1);
    if (word.glob) throw new Unproven('a glob in a redirection target', word.start, word.end);
    return { operator, ...(descriptor ? { descriptor } : {}), target: word.value, start, end: this.#index };
  }

  #hereDocument(start: number, descriptor: string): ReadRedirect {
    if (descriptor || this.source[this.#index] === '-')
      throw new Unproven("a here-document other than <<'DELIMITER'", start, this.#index + 1);
    this.#skipBlanks();
    const quote = this.source[this.#index];
    const close = quote === "'" || quote === '"' ? this.source.indexOf(quote, this.#index + 1) : -1;
    const delimiter = close === -1 ? '' : this.source.slice(this.#index + 1, close);
    const after = this.source[close + 1];
    if (close === -1 || !DELIMITER.test(delimiter) || (after !== undefined && !/[ \t\n;|&<>]/.test(after)))
      throw new Unproven(
        'a here-document whose delimiter is not one quoted plain word',
        start,
        this.#index + 1,
      );
    this.#index = close + 1;
    this.#pending.push({ delimiter });
    return { operator: '<<', target: delimiter, start, end: this.#index };
  }

  /** One word, or undefined when the next character cannot start one. */
  #word(allowEmpty: boolean): ReadWord | undefined {
    const start = this.#index;
    let value = '';
    let glob = false;
    let bracket: number | undefined;
    for (;;) {
      const char = this.source[this.#index];
      if (char === undefined || /[ \t\n;|&<>]/.test(char)) break;
      const offset = this.#index;
      if (char === "'") {
        const close = this.source.indexOf("'", offset + 1);
        if (close === -1) throw this.#here('an unterminated single quote');
        const text = this.source.slice(offset + 1, close);
        if (text.includes('\n') && this.#pending.length > 0)
          throw this.#here('a quoted newline on a here-document line');
        value += text;
        this.#index = close + 1;
      } else if (char === '"') value += this.#doubleQuoted();
      else if (char === '\\') {
        const next = this.source[offset + 1];
        if (next === undefined || next === '\n' || next === '\t' || !/[\x20-\x7e]/.test(next))
          throw this.#here('a backslash before a character other than a printable one', 2);
        value += next;
        this.#index += 2;
      } else if (char === '$') throw this.#expansion(offset);
      else if (char === '`') throw this.#here('a backtick command substitution');
      else if (char === '(' || char === ')') throw this.#here(`"${char}" (a subshell, function or array)`);
      else if (char === '~' && (offset === start || /[=:]/.test(this.source[offset - 1] as string)))
        throw this.#here('a tilde expansion');
      else if (char === '{' || char === '}') {
        if (!this.#at('{}')) throw this.#here('a brace (group or brace expansion)');
        value += '{}';
        this.#index += 2;
      } else if (char === '*' || char === '?' || char === '[') {
        if (char === '[') bracket ??= value.length;
        else glob = true;
        value += char;
        this.#index++;
      } else if (
        char === ']' ||
        char === '~' ||
        (char === '#' && offset > start) ||
        PLAIN.test(char) ||
        /[^\x00-\x7f]/.test(char)
      ) {
        value += char;
        this.#index++;
      } else throw this.#here(`"${char}"`);
    }
    if (this.#index === start && !allowEmpty) return undefined;
    // An unquoted `[` is a pattern only when a `]` closes it later in the word (`[ -d x ]` is literal).
    if (bracket !== undefined && value.indexOf(']', bracket + 1) !== -1) glob = true;
    return { value, start, end: this.#index, glob };
  }

  #doubleQuoted(): string {
    const open = this.#index;
    let value = '';
    this.#index++;
    for (;;) {
      const char = this.source[this.#index];
      if (char === undefined) throw new Unproven('an unterminated double quote', open, this.source.length);
      if (char === '"') {
        this.#index++;
        return value;
      }
      if (char === '$') throw this.#expansion(this.#index);
      if (char === '`') throw this.#here('a backtick command substitution');
      if (char === '\n' && this.#pending.length > 0)
        throw this.#here('a quoted newline on a here-document line');
      if (char === '\\') {
        const next = this.source[this.#index + 1];
        if (next === undefined || next === '\n')
          throw this.#here('a line continuation inside double quotes', 2);
        value += '"\\$`'.includes(next) ? next : `\\${next}`;
        this.#index += 2;
        continue;
      }
      value += char;
      this.#index++;
    }
  }
}

function expansionName(source: string, index: number): string {
  const next = source[index + 1];
  if (next === "'") return "an ANSI-C string $'…'";
  if (next === '"') return 'a translated string $"…"';
  if (next === '(') return source[index + 2] === '(' ? 'an arithmetic expansion' : 'a command substitution';
  if (next === '{') return 'a parameter expansion';
  if (next === '[') return 'an arithmetic expansion';
  return 'a variable expansion';
}
