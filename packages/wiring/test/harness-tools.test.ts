import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type HarnessCapabilities, harnessTools } from '@quiver/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuiver, type Quiver } from '../src/index.js';

const names = (pool: { definitions: { name: string }[] }) => pool.definitions.map((d) => d.name);
const HELPERS = ['ask_user', 'exit_plan_mode', 'structured_output', 'task_complete'];

/** A harness that records what each helper tool handed it. */
function recordingHarness() {
  const received: Record<string, unknown[]> = { ask: [], complete: [], plan: [], output: [] };
  const capabilities: HarnessCapabilities = {
    askUser: async (question) => {
      received.ask?.push(question);
      return question.choices?.includes('staging')
        ? { answer: 'staging' }
        : { declined: true, reason: 'busy' };
    },
    taskComplete: (report) => void received.complete?.push(report),
    exitPlanMode: async (plan) => {
      received.plan?.push(plan);
      return { approved: false, feedback: 'Add a rollback step.' };
    },
    structuredOutput: {
      schema: {
        type: 'object',
        properties: { verdict: { type: 'string', enum: ['pass', 'fail'] }, score: { type: 'number' } },
        required: ['verdict'],
      },
      deliver: (value) => void received.output?.push(value),
    },
  };
  return { capabilities, received };
}

describe('helper tools gated on what the harness declares', () => {
  let workspace: string;
  let quiver: Quiver;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quiver-harness-')));
    quiver = await createQuiver({ workspace, discoverConfig: false });
  }, 60_000);

  afterAll(async () => {
    await quiver?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('offers no helper tool the harness did not declare', () => {
    const tools = names(quiver.createSession().pool());
    for (const helper of HELPERS) expect(tools).not.toContain(helper);
    const onlyAsk = names(
      quiver
        .createSession({ externalTools: harnessTools({ askUser: async () => ({ answer: 'x' }) }) })
        .pool(),
    );
    expect(onlyAsk).toContain('ask_user');
    expect(onlyAsk).not.toContain('task_complete');
  });

  it('routes each helper tool of a headless session to the harness and returns its answer to the model', async () => {
    const { capabilities, received } = recordingHarness();
    const session = quiver.createSession({ externalTools: harnessTools(capabilities) });
    expect(names(session.pool())).toEqual(expect.arrayContaining(HELPERS));
    const [asked, declined, plan, badOutput, output, done] = await session.execute([
      { name: 'ask_user', args: { question: 'Deploy where?', choices: ['staging', 'production'] } },
      { name: 'ask_user', args: { question: 'Anything else?' } },
      { name: 'exit_plan_mode', args: { plan: '1. Build\n2. Deploy' } },
      { name: 'structured_output', args: { verdict: 'maybe' } },
      { name: 'structured_output', args: { verdict: 'pass', score: 0.9 } },
      { name: 'task_complete', args: { summary: 'Deployed to staging.' } },
    ]);
    expect(asked).toMatchObject({ ok: true, value: 'staging' });
    expect(declined).toMatchObject({
      ok: true,
      value: 'The user did not answer: busy',
      structured: { declined: true },
    });
    expect(plan).toMatchObject({
      ok: true,
      structured: { approved: false, feedback: 'Add a rollback step.' },
    });
    expect(badOutput).toMatchObject({ ok: false, code: 'input_invalid' });
    expect(!badOutput?.ok && badOutput?.error).toContain('verdict');
    expect(output).toMatchObject({ ok: true });
    expect(done).toMatchObject({ ok: true });
    expect(received).toEqual({
      ask: [
        {
          question: 'Deploy where?',
          choices: ['staging', 'production'],
          shown: { text: 'The model asks: Deploy where?', choices: ['staging', 'production'] },
        },
        { question: 'Anything else?', shown: { text: 'The model asks: Anything else?' } },
      ],
      complete: [{ summary: 'Deployed to staging.' }],
      plan: [
        {
          plan: '1. Build\n2. Deploy',
          shown: {
            text: 'The model presents this plan and asks to leave plan mode:\n> 1. Build\n> 2. Deploy',
          },
        },
      ],
      output: [{ verdict: 'pass', score: 0.9 }],
    });
  });

  it('gives each agent kind the helpers its agent set allows', () => {
    const { capabilities } = recordingHarness();
    const parent = quiver.createSession({ externalTools: harnessTools(capabilities) });
    const helpersOf = (pool: { definitions: { name: string }[] }) =>
      names(pool).filter((name) => HELPERS.includes(name));
    expect(helpersOf(parent.createChild({ agent: 'subagent' }).pool())).toEqual(['structured_output']);
    expect(helpersOf(parent.createChild({ agent: 'async' }).pool())).toEqual(['structured_output']);
    expect(helpersOf(parent.createChild({ agent: 'coordinator' }).pool())).toEqual(['structured_output']);
    // A deny rule still removes a helper.
    const denied = quiver.createSession({
      externalTools: harnessTools(capabilities),
      permissions: { deny: ['ask_user'] },
    });
    expect(names(denied.pool())).not.toContain('ask_user');
  });

  it('refuses a structured-output schema that is not an object schema, saying how to fix it', () => {
    expect(() =>
      harnessTools({ structuredOutput: { schema: { type: 'string' }, deliver: () => undefined } }),
    ).toThrow(/must be a JSON object schema/);
  });
});
