import {
  errorMessage,
  fail,
  type ModelQuestion,
  ok,
  QuiverError,
  renderModelPlan,
  renderModelQuestion,
} from '@quiver/types';
import { z } from 'zod';
import type { ExternalToolDefinition } from '../contracts.js';

/** What the person answered, or that they would not. */
export type AskUserAnswer = { answer: string } | { declined: true; reason?: string };

/** How the person judged a plan. */
export interface PlanVerdict {
  approved: boolean;
  feedback?: string;
}

/**
 * What the harness around the model can do. Each capability it declares adds one helper tool,
 * routed back to it; a capability it does not declare adds nothing, so the model never sees a
 * tool that no one would answer.
 */
export interface HarnessCapabilities {
  /**
   * `ask_user`: a question for the person, with optional choices. Show the person `shown` (the
   * question labelled as the model's, every invisible character escaped), never the raw text.
   */
  askUser?(
    question: { question: string; choices?: string[]; shown: ModelQuestion },
    signal: AbortSignal,
  ): Promise<AskUserAnswer>;
  /** `task_complete`: the agent reports its task done, with a summary. */
  taskComplete?(report: { summary: string }, signal: AbortSignal): Promise<void> | void;
  /** `exit_plan_mode`: the agent presents its plan and asks to leave plan mode; show the person `shown`. */
  exitPlanMode?(plan: { plan: string; shown: ModelQuestion }, signal: AbortSignal): Promise<PlanVerdict>;
  /**
   * `worktree_create` / `worktree_remove`: a separate git worktree for the agent's work. The
   * harness decides where the agent works next; `createWorktreeHelpers` (@quiver/tools-terminal)
   * runs git with the terminal's git hardening.
   */
  worktrees?: {
    create(
      args: { name: string; branch?: string },
      signal: AbortSignal,
    ): Promise<{ path: string; branch: string }>;
    remove(args: { name: string; force?: boolean }, signal: AbortSignal): Promise<void>;
  };
  /** `structured_output`: the agent's final answer as data matching `schema` (a JSON object schema). */
  structuredOutput?: {
    schema: Record<string, unknown>;
    deliver(value: Record<string, unknown>, signal: AbortSignal): Promise<void> | void;
  };
}

/** The helper tools' names, as the agent policies spell them. */
export const HARNESS_TOOL_NAMES = {
  askUser: 'ask_user',
  taskComplete: 'task_complete',
  exitPlanMode: 'exit_plan_mode',
  structuredOutput: 'structured_output',
  worktreeCreate: 'worktree_create',
  worktreeRemove: 'worktree_remove',
} as const;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The helper tools for the capabilities a harness declares, as external tools of a session
 * (`createSession({ externalTools: harnessTools(capabilities) })`). They talk only to the
 * harness, so they run without asking; deny rules and the agent sets still apply (a sub-agent
 * gets neither `ask_user` nor `exit_plan_mode`). Throws on a structured-output schema that is
 * not a JSON object schema.
 */
export function harnessTools(capabilities: HarnessCapabilities): ExternalToolDefinition[] {
  const tools: ExternalToolDefinition[] = [];
  const { askUser, taskComplete, exitPlanMode, structuredOutput, worktrees } = capabilities;
  if (askUser) {
    tools.push({
      name: HARNESS_TOOL_NAMES.askUser,
      description:
        'Asks the user a question and waits for the answer. Use it when you cannot go on without a decision or a fact only the user has.',
      parameters: {
        type: 'object',
        properties: {
          question: { type: 'string', description: 'The question, complete and self-contained.' },
          choices: { type: 'array', items: { type: 'string' }, description: 'Answers to offer, if any.' },
        },
        required: ['question'],
      },
      annotations: { readOnly: true },
      skipPermission: true,
      async execute(args, ctx) {
        const input = args as { question?: unknown; choices?: unknown };
        const question = text(input.question).trim();
        if (question.length === 0) return fail('input_invalid', 'ask_user needs a non-empty question.');
        const choices = Array.isArray(input.choices) ? input.choices.map(text) : undefined;
        const answer = await askUser.call(
          capabilities,
          {
            question,
            ...(choices ? { choices } : {}),
            shown: renderModelQuestion({ question, ...(choices ? { choices } : {}) }),
          },
          ctx.signal,
        );
        if ('declined' in answer)
          return ok(`The user did not answer${answer.reason ? `: ${answer.reason}` : '.'}`, {
            structured: { declined: true, ...(answer.reason ? { reason: answer.reason } : {}) },
          });
        return ok(answer.answer, { structured: { answer: answer.answer } });
      },
    });
  }
  if (taskComplete) {
    tools.push({
      name: HARNESS_TOOL_NAMES.taskComplete,
      description:
        'Reports that the task is complete, with a short summary of what was done. Call it once, at the end.',
      parameters: {
        type: 'object',
        properties: { summary: { type: 'string', description: 'What was done, in a few sentences.' } },
        required: ['summary'],
      },
      skipPermission: true,
      async execute(args, ctx) {
        const summary = text((args as { summary?: unknown }).summary).trim();
        if (summary.length === 0)
          return fail('input_invalid', 'task_complete needs a summary of what was done.');
        await taskComplete.call(capabilities, { summary }, ctx.signal);
        return ok('The task is marked complete.');
      },
    });
  }
  if (exitPlanMode) {
    tools.push({
      name: HARNESS_TOOL_NAMES.exitPlanMode,
      description:
        'Presents your plan to the user and asks to leave plan mode and start working. Returns whether the plan was approved, with any feedback.',
      parameters: {
        type: 'object',
        properties: { plan: { type: 'string', description: 'The plan, in Markdown.' } },
        required: ['plan'],
      },
      skipPermission: true,
      async execute(args, ctx) {
        const plan = text((args as { plan?: unknown }).plan).trim();
        if (plan.length === 0) return fail('input_invalid', 'exit_plan_mode needs the plan to present.');
        const verdict = await exitPlanMode.call(
          capabilities,
          { plan, shown: renderModelPlan(plan) },
          ctx.signal,
        );
        const feedback = verdict.feedback ? ` Feedback: ${verdict.feedback}` : '';
        return ok(
          verdict.approved
            ? `The plan was approved; plan mode is over.${feedback}`
            : `The plan was not approved; stay in plan mode.${feedback}`,
          {
            structured: {
              approved: verdict.approved,
              ...(verdict.feedback ? { feedback: verdict.feedback } : {}),
            },
          },
        );
      },
    });
  }
  if (structuredOutput) {
    const { schema, deliver } = structuredOutput;
    if (schema.type !== 'object')
      throw new QuiverError(
        'usage',
        'The structured-output schema must be a JSON object schema ({ "type": "object", ... }).',
        {
          fix: 'Wrap the value in an object schema, e.g. { "type": "object", "properties": { "result": ... }, "required": ["result"] }.',
        },
      );
    const validator = z.fromJSONSchema(schema);
    tools.push({
      name: HARNESS_TOOL_NAMES.structuredOutput,
      description:
        'Returns your final answer as structured data matching the parameters. Call it once, when done.',
      parameters: schema,
      skipPermission: true,
      async execute(args, ctx) {
        const parsed = validator.safeParse(args);
        if (!parsed.success)
          return fail(
            'input_invalid',
            `The output does not match the schema: ${parsed.error.issues
              .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
              .join('; ')}. Call structured_output again with corrected data.`,
          );
        await deliver.call(structuredOutput, args as Record<string, unknown>, ctx.signal);
        return ok('The structured output was delivered.');
      },
    });
  }
  if (worktrees) {
    // These change the repository and the workspace: asked like any client tool, never skipped.
    tools.push({
      name: HARNESS_TOOL_NAMES.worktreeCreate,
      description:
        'Creates a separate git worktree (a second checkout on a new branch) for isolated work, and returns its path.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'A short name: letters, digits, ".", "_", "-".' },
          branch: { type: 'string', description: 'The new branch (default worktree/<name>).' },
        },
        required: ['name'],
      },
      annotations: { destructive: false },
      async execute(args, ctx) {
        const input = args as { name?: unknown; branch?: unknown };
        const branch = typeof input.branch === 'string' ? { branch: input.branch } : {};
        try {
          const made = await worktrees.create({ name: text(input.name), ...branch }, ctx.signal);
          return ok(`Created worktree ${made.path} on branch ${made.branch}.`, { structured: made });
        } catch (error) {
          return fail('execution_failed', `The worktree could not be created: ${errorMessage(error)}`);
        }
      },
    });
    tools.push({
      name: HARNESS_TOOL_NAMES.worktreeRemove,
      description:
        'Removes a git worktree made with worktree_create (force also drops its uncommitted changes).',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string' }, force: { type: 'boolean' } },
        required: ['name'],
      },
      annotations: { destructive: true },
      async execute(args, ctx) {
        const input = args as { name?: unknown; force?: unknown };
        try {
          await worktrees.remove({ name: text(input.name), force: input.force === true }, ctx.signal);
          return ok(`Removed worktree ${text(input.name)}.`);
        } catch (error) {
          return fail('execution_failed', `The worktree could not be removed: ${errorMessage(error)}`);
        }
      },
    });
  }
  return tools;
}
