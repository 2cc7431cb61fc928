import { describe, expect, it } from 'vitest';
import { renderModelPlan, renderModelQuestion, visibleText } from '../src/index.js';

const HIDDEN = [
  ...'\u202e\u2066\u200b\u2060\ufeff\u00ad\u00a0\u2028\u0000\u0007\t\n\r\u001b\u009b',
  '\u{e0041}',
];
const PLAIN = [...'ab Z9;[]"é漢'];

function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function hostile(random: () => number): string {
  let text = '';
  for (let index = 1 + Math.floor(random() * 30); index > 0; index--) {
    const from = random() < 0.5 ? HIDDEN : PLAIN;
    text += from[Math.floor(random() * from.length)];
  }
  return text;
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|[^\S ]/u;

describe("the model's own question and plan, as a person is shown them", () => {
  it("labels generated hostile questions as the model's and shows every code point visibly, in order", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = generator(seed);
      const question = hostile(random);
      const choices = [hostile(random), hostile(random)];
      const shown = renderModelQuestion({ question, choices });
      expect(shown.text, `seed ${seed}`).toBe(`The model asks: ${visibleText(question)}`);
      expect(shown.choices, `seed ${seed}`).toEqual(choices.map((choice) => visibleText(choice)));
      for (const text of [shown.text, ...(shown.choices ?? [])])
        expect(INVISIBLE.test(text), `seed ${seed}: ${JSON.stringify(text)}`).toBe(false);
    }
  });

  it("quotes every line of a plan, so no line can pass for Quiver's own", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const plan = hostile(generator(seed));
      const lines = renderModelPlan(plan).text.split('\n');
      expect(lines[0]).toBe('The model presents this plan and asks to leave plan mode:');
      expect(lines.slice(1)).toEqual(plan.split('\n').map((line) => `> ${visibleText(line)}`));
      for (const line of lines) expect(INVISIBLE.test(line), `seed ${seed}`).toBe(false);
    }
  });
});
