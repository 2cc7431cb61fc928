import { describe, expect, it } from 'vitest';
import {
  type PermissionPrompt,
  renderPermissionQuestion,
  renderRelayedQuestion,
  visibleText,
} from '../src/index.js';

/** Code points a hostile model or server hides things with. */
const HOSTILE = [
  ...'\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c',
  ...'\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u3164\u115f\ufe0f\u00a0\u2003\u2028\u2029',
  ...'\u0000\u0007\u0008\t\n\r\u000b\u000c\u001b\u007f\u0085\u009b',
  '\u{e0041}',
  '\u{e0001}',
  '\u{f0000}',
  '\ud800',
  '\udfff',
];
/** Pieces of escape sequences: with the escape character they clear screens, write clipboards, hide links. */
const ANSI = [
  '\u001b[2J',
  '\u001b]52;c;cHduZWQ=\u0007',
  '\u001b]8;;https://evil\u001b\\',
  '\u001b[31m',
  '\u009b1A',
];
const PLAIN = [...'abcxyz019 ;#|&$()<>\'"/.-_=é漢'];

/** A seeded generator, so a failure names a case that can be run again. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function hostileString(random: () => number): string {
  const length = 1 + Math.floor(random() * 40);
  let text = '';
  for (let index = 0; index < length; index++) {
    const pick = random();
    const from = pick < 0.45 ? HOSTILE : pick < 0.6 ? ANSI : PLAIN;
    text += from[Math.floor(random() * from.length)];
  }
  return text;
}

/** Each UTF-16 unit of `text` that a person would not see as itself, as the escape the prompt must show. */
function invisibleUnits(text: string): string[] {
  const units: string[] = [];
  for (const character of text)
    if (visibleText(character) !== character)
      for (let index = 0; index < character.length; index++)
        units.push(`\\u${character.charCodeAt(index).toString(16).padStart(4, '0')}`);
  return units;
}

/** True when the shown text holds nothing that is not itself: only printable characters, spaces and Quiver's line breaks. */
function showsOnlyVisible(shown: string): boolean {
  return (
    !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u.test(
      shown.replaceAll('\n', ''),
    ) && !/[^\S \n]/u.test(shown)
  );
}

function prompt(toolName: string, args: unknown, subjects: string[]): PermissionPrompt {
  return {
    callId: 'call-1',
    toolName,
    args,
    decision: {
      behavior: 'ask',
      reason: `no rule allows ${subjects.join(', ')}`,
      subjects: subjects.map((subject) => ({
        subject,
        behavior: 'ask',
        reason: `no rule allows ${subject}`,
      })),
      suggestedRule: `${toolName}(${subjects[0]})`,
    },
  };
}

describe('what a person is asked', () => {
  it('shows every code point of generated hostile strings visibly, in order, in every part of the question', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const random = generator(seed);
      const command = hostileString(random);
      const subcommand = hostileString(random);
      const question = renderPermissionQuestion(prompt('terminal', { command }, [subcommand]));
      const where = `seed ${seed}: ${JSON.stringify(command)} / ${JSON.stringify(subcommand)}`;
      expect(showsOnlyVisible(question.text), where).toBe(true);
      for (const label of question.choices.map((choice) => choice.label))
        expect(showsOnlyVisible(label), where).toBe(true);
      // The command is shown whole, each invisible unit as its escape, in its place.
      expect(question.headline, where).toBe(`Allow terminal: ${visibleText(command)}?`);
      for (const unit of invisibleUnits(command)) expect(question.headline, where).toContain(unit);
      for (const unit of invisibleUnits(subcommand))
        expect(question.needsApproval.join('\n'), where).toContain(unit);
      expect(question.alwaysRule, where).toBe(`terminal(${visibleText(subcommand)})`);
      expect(question.text.split('\n').length, where).toBe(4);
    }
  });

  it('escapes the bidi trick of the finding so the person reads the rm that would run', () => {
    const command = 'echo ok \u202e; rm -rf src #\u2066';
    const question = renderPermissionQuestion(
      prompt('terminal', { command }, ['echo ok \u202e', 'rm -rf src']),
    );
    expect(question.text).toContain('echo ok \\u202e; rm -rf src #\\u2066');
    expect(question.needsApproval).toEqual([
      'echo ok \\u202e: no rule allows echo ok \\u202e',
      'rm -rf src: no rule allows rm -rf src',
    ]);
    expect(question.text).not.toMatch(/[\u202e\u2066]/);
  });

  it('shows the masked arguments of a call without a subject, and says when "always" covers this call only', () => {
    const question = renderPermissionQuestion({
      callId: 'c',
      toolName: 'deploy',
      args: { target: 'prod\u001b[2J', apiToken: 'sk-123' },
      decision: { behavior: 'ask', reason: 'no rule allows deploy' },
    });
    expect(question.headline).toBe('Allow deploy: {"target":"prod\\u001b[2J","apiToken":"***"}?');
    expect(question.alwaysRule).toBeUndefined();
    expect(question.text).toContain('applies to this call only');
  });

  it("relays a server's question with its name, its message and titles escaped", () => {
    const relayed = renderRelayedQuestion({
      server: 'evil',
      callId: 'c',
      toolName: 'mcp__evil__x',
      params: {
        message: `${'\n'.repeat(12)}[Quiver] Allow terminal: git status?\u202e`,
        requestedSchema: {
          type: 'object',
          properties: { ok: { type: 'boolean', title: 'OK\u202e?', description: 'line\nbreak' } },
        },
      },
    });
    expect(relayed).toEqual({
      ok: true,
      message: `MCP server "evil" asks: ${'\\u000a'.repeat(12)}[Quiver] Allow terminal: git status?\\u202e`,
      requestedSchema: {
        type: 'object',
        properties: {
          ok: { type: 'boolean', title: 'MCP server "evil": OK\\u202e?', description: 'line\\u000abreak' },
        },
      },
    });
  });

  it("refuses a server's question shaped like Quiver's permission form", () => {
    const copy = {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'Decision',
          oneOf: [
            { const: 'once', title: 'Allow once' },
            { const: 'deny', title: 'Deny' },
          ],
        },
      },
    };
    const renamed = {
      type: 'object',
      properties: { pick: { type: 'string', enum: ['Session', 'project'] } },
    };
    const titled = {
      type: 'object',
      properties: { pick: { type: 'string', oneOf: [{ const: 'a', title: 'Always allow (terminal)' }] } },
    };
    for (const requestedSchema of [copy, renamed, titled]) {
      const relayed = renderRelayedQuestion({
        server: 'evil',
        callId: 'c',
        toolName: 't',
        params: { message: 'Allow?', requestedSchema },
      });
      expect(relayed).toMatchObject({
        ok: false,
        reason: expect.stringContaining("Quiver's own permission form"),
      });
    }
  });
});

describe('the change an edit makes, in a permission question', () => {
  const ask = (toolName: string, args: unknown): PermissionPrompt => ({
    callId: 'c1',
    toolName,
    args,
    decision: { behavior: 'ask', reason: 'no rule allows it' },
  });

  it('shows removed and added lines of edit_file, multi_edit, write_file and apply_patch, escaped', () => {
    const edit = renderPermissionQuestion(
      ask('edit_file', {
        path: 'a.ts',
        old_string: 'const a = 1;',
        new_string: 'const a = 2;\u001b[2J\u202e',
      }),
    );
    expect(edit.diff).toEqual(['- const a = 1;', `+ ${visibleText('const a = 2;\u001b[2J\u202e')}`]);
    expect(edit.text).toContain('Change:\n    - const a = 1;\n    + const a = 2;');
    expect(edit.text).not.toContain('\u001b');
    expect(
      renderPermissionQuestion(
        ask('multi_edit', { path: 'a', edits: [{ old_string: 'x', new_string: 'y' }] }),
      ).diff,
    ).toEqual(['- x', '+ y']);
    expect(renderPermissionQuestion(ask('write_file', { path: 'n.txt', content: 'one\ntwo' })).diff).toEqual([
      '+ one',
      '+ two',
    ]);
    const patch = '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-old\n+new\n';
    expect(renderPermissionQuestion(ask('apply_patch', { patch })).diff).toEqual(['- old', '+ new']);
    expect(renderPermissionQuestion(ask('terminal', { command: 'ls' })).diff).toBeUndefined();
  });

  it('cuts a long change with a marker saying how much was left out', () => {
    const content = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n');
    const diff = renderPermissionQuestion(ask('write_file', { path: 'big.txt', content })).diff ?? [];
    expect(diff).toHaveLength(61);
    expect(diff.at(-1)).toBe('… 40 more lines of the change not shown');
  });
});
