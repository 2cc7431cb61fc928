import { boundedVisibleText, visibleText } from './visible-text.js';

/** How much of the model's question, or of one of its offered answers, a person is shown. */
const MAX_QUESTION_CHARS = 4_000;
const MAX_CHOICE_CHARS = 200;
/** How many lines of a plan a person is shown before a marker says how many were left out. */
const MAX_PLAN_LINES = 400;

/** What a person is shown when the model asks them something: Quiver's label around escaped text. */
export interface ModelQuestion {
  /** The whole question: who asks, then the model's words, every invisible character escaped. */
  text: string;
  /** The answers the model offers, each escaped and bounded, in its order. */
  choices?: string[];
}

/**
 * The question of the model's `ask_user` call as a person is shown it: labelled as the model's
 * (so "[Quiver] Allow terminal: …" reads as what the model wrote), on one line with every
 * newline, control, bidi and invisible character escaped, and bounded; its offered answers
 * escaped the same way. The raw question still goes to whoever answers, beside this.
 */
export function renderModelQuestion(question: {
  question: string;
  choices?: readonly string[];
}): ModelQuestion {
  return {
    text: `The model asks: ${boundedVisibleText(question.question, MAX_QUESTION_CHARS)}`,
    ...(question.choices === undefined
      ? {}
      : { choices: question.choices.map((choice) => boundedVisibleText(choice, MAX_CHOICE_CHARS)) }),
  };
}

/**
 * The plan of the model's `exit_plan_mode` call as a person is shown it: labelled as the model's,
 * each of its lines quoted (`> `) with every character but the line break escaped, so no line of
 * the plan can pass for Quiver's own text; cut after a bound, with a marker.
 */
export function renderModelPlan(plan: string): ModelQuestion {
  const lines = plan.split('\n');
  const shown = lines.slice(0, MAX_PLAN_LINES).map((line) => `> ${visibleText(line)}`);
  if (lines.length > MAX_PLAN_LINES)
    shown.push(`… ${lines.length - MAX_PLAN_LINES} more lines of the plan not shown`);
  return { text: ['The model presents this plan and asks to leave plan mode:', ...shown].join('\n') };
}
