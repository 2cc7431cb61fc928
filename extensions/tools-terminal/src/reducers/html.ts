import { createRequire } from 'node:module';
import type { Recognizer, RecognizerInput } from './reducer-input.js';

/**
 * A web page fetched to the terminal (`curl https://…`, `curl -i`, `wget -O -`): head and tail of
 * its markup are scripts, styles and navigation. A reader needs what the page says: its title,
 * its outline (the headings, in order) and its text, with the markup left out; and, with `curl
 * -i`, the response's status and headers. Parsed by htmlparser2, loaded when a page first comes.
 */

type Parser = new (
  handlers: {
    onopentag?(name: string, attributes: Record<string, string>): void;
    onclosetag?(name: string): void;
    ontext?(text: string): void;
  },
  options?: { decodeEntities?: boolean; lowerCaseTags?: boolean },
) => { write(chunk: string): void; end(): void };

let parserClass: Parser | null | undefined;

/** htmlparser2's parser, or null where this Node.js cannot load it synchronously (require of ES modules came in 20.19). */
function htmlParser(): Parser | null {
  if (parserClass !== undefined) return parserClass;
  try {
    const require = createRequire(import.meta.url);
    parserClass = (require('htmlparser2') as { Parser: Parser }).Parser;
  } catch {
    parserClass = null;
  }
  return parserClass;
}

const HTTP_STATUS = /^HTTP\/[\d.]+ \d{3}\b/;
const PAGE_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i;
/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** Elements that end a line of text. */
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'br',
  'tr',
  'table',
  'pre',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'footer',
  'nav',
  'main',
  'form',
  'hr',
]);
const HEADING = /^h([1-6])$/;
const MAX_HEADINGS = 200;

interface Page {
  title: string;
  headings: { level: number; text: string }[];
  lines: string[];
  links: number;
}

function readPage(html: string, Parser: Parser): Page {
  const page: Page = { title: '', headings: [], lines: [], links: 0 };
  let hidden = 0;
  let inTitle = false;
  let heading: { level: number; text: string } | undefined;
  let line = '';
  const endLine = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text !== '') page.lines.push(text);
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true;
        if (HIDDEN.has(name) && name !== 'head') hidden++;
        if (name === 'a') page.links++;
        const level = HEADING.exec(name);
        if (level) heading = { level: Number(level[1]), text: '' };
        if (BLOCK.has(name)) endLine();
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (HIDDEN.has(name) && name !== 'head') hidden = Math.max(0, hidden - 1);
        if (heading && HEADING.test(name)) {
          const text = heading.text.replace(/\s+/g, ' ').replace(/¶/g, '').trim();
          if (text !== '') page.headings.push({ level: heading.level, text });
          heading = undefined;
        }
        if (BLOCK.has(name)) endLine();
      },
      ontext(text) {
        if (inTitle) page.title += text;
        if (hidden > 0) return;
        if (heading) heading.text += text;
        line += text;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  endLine();
  page.title = page.title.replace(/\s+/g, ' ').trim();
  return page;
}

export const reduceHtmlPage: Recognizer = (input: RecognizerInput) => {
  if (input.output.length <= input.budget) return undefined;
  const lines = input.lines;
  let body = 0;
  const headers: string[] = [];
  if (HTTP_STATUS.test(lines[0] ?? '')) {
    // `curl -i`: the status line and headers (of each redirect), then a blank line, then the page.
    while (body < lines.length && body < 200) {
      const blank = lines.indexOf('', body);
      if (blank < 0) return undefined;
      headers.push(...lines.slice(body, blank));
      body = blank + 1;
      if (!HTTP_STATUS.test(lines[body] ?? '')) break;
      headers.push('');
    }
  }
  const html = lines.slice(body).join('\n');
  if (!PAGE_START.test(html.slice(0, 2_000))) return undefined;
  const Parser = htmlParser();
  if (Parser === null) return undefined;
  const page = readPage(html, Parser);
  const text = page.lines.join('\n');
  const head = [
    ...headers,
    ...(headers.length > 0 ? [''] : []),
    `[HTML page, ${html.length.toLocaleString('en-US')} characters${page.title ? `: "${page.title}"` : ''}; ${page.headings.length.toLocaleString('en-US')} headings, ${page.links.toLocaleString('en-US')} links, ${text.length.toLocaleString('en-US')} characters of text; markup not shown]`,
  ];
  const outline = page.headings
    .slice(0, MAX_HEADINGS)
    .map(
      (entry) =>
        `${'#'.repeat(entry.level)} ${entry.text.length > 160 ? `${entry.text.slice(0, 160)}…` : entry.text}`,
    );
  if (page.headings.length > MAX_HEADINGS)
    outline.push(`[… ${page.headings.length - MAX_HEADINGS} more headings]`);
  const used = [...head, ...outline].join('\n').length;
  const room = Math.max(400, input.budget - used - 100);
  const shown =
    text.length <= room
      ? text
      : `${text.slice(0, room)}\n[… ${(text.length - room).toLocaleString('en-US')} more characters of text]`;
  return [...head, ...(outline.length > 0 ? ['Outline:', ...outline] : []), 'Text:', shown].join('\n');
};
