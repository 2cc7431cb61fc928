import { setTimeout as sleep } from 'node:timers/promises';
import { describeStorage, STORAGE_KINDS, useTestStorage } from '@quiver/test-storage';
import { structuredOf, type TestStorage } from '@quiver/test-utils';
import type { PluginContext, Tool, ToolResult, ToolResultReducer } from '@quiver/types';
import { beforeEach, describe, expect, it } from 'vitest';
import defaultPlugin, {
  kanbanArchive,
  kanbanComment,
  kanbanCreate,
  kanbanGet,
  kanbanLink,
  kanbanList,
  kanbanListReducer,
  kanbanMove,
  kanbanPlugin,
  kanbanUpdate,
  type Ticket,
  type TicketDetails,
  type TicketSummary,
} from '../src/index.js';

// The storage of the running test, on the backend of its describe block.
let storage: TestStorage;

async function create(args: Record<string, unknown>): Promise<Ticket> {
  return structuredOf<{ ticket: Ticket }>(await storage.call(kanbanCreate, args)).ticket;
}

async function details(id: number): Promise<TicketDetails> {
  return structuredOf<{ ticket: TicketDetails }>(await storage.call(kanbanGet, { id })).ticket;
}

async function listIds(args: Record<string, unknown>): Promise<number[]> {
  const { tickets } = structuredOf<{ tickets: TicketSummary[] }>(await storage.call(kanbanList, args));
  return tickets.map((ticket) => ticket.id).sort((a, b) => a - b);
}

function failure(result: ToolResult): { code: string; error: string; structured: unknown } {
  if (result.ok) throw new Error(`expected a failure, got: ${result.value}`);
  return { code: result.code, error: result.error, structured: result.structured };
}

for (const kind of STORAGE_KINDS) {
  describeStorage(kind)(`kanban tools on ${kind}`, () => {
    const current = useTestStorage(kind, { prefix: 'quiver-kanban', personalityId: 'planner' });
    beforeEach(() => {
      storage = current();
    });

    describe('tickets', () => {
      it('creates a ticket with defaults and shows it in full', async () => {
        const ticket = await create({
          title: 'Write the release notes',
          labels: ['docs', ' docs ', 'release'],
        });
        expect(ticket).toMatchObject({
          board: 'main',
          status: 'todo',
          priority: 'medium',
          assignee: null,
          labels: ['docs', 'release'],
          version: 1,
        });
        const result = await storage.call(kanbanGet, { id: ticket.id });
        expect(result.ok && result.value).toContain(`#${ticket.id} Write the release notes`);
        expect(result.ok && result.value).toContain('created as todo by planner');
      });

      it('reports a missing ticket as not_found', async () => {
        expect(failure(await storage.call(kanbanGet, { id: 404 })).code).toBe('not_found');
        expect(failure(await storage.call(kanbanUpdate, { id: 404, title: 'x' })).code).toBe('not_found');
      });

      it('filters the list by board, status, assignee, label and text, hiding archived tickets', async () => {
        const login = await create({ title: 'Fix login redirect', assignee: 'ada', labels: ['bug', 'auth'] });
        const cache = await create({
          title: 'Cache avatars',
          description: 'Use the CDN for images',
          labels: ['perf'],
        });
        const docs = await create({ title: 'Document the API', board: 'docs', assignee: 'grace' });
        const old = await create({ title: 'Old login spike', labels: ['auth'] });
        await storage.call(kanbanMove, { id: cache.id, status: 'in_progress' });
        await storage.call(kanbanArchive, { id: old.id });

        expect(await listIds({})).toEqual([login.id, cache.id, docs.id]);
        expect(await listIds({ board: 'docs' })).toEqual([docs.id]);
        expect(await listIds({ status: 'in_progress' })).toEqual([cache.id]);
        expect(await listIds({ status: ['todo', 'archived'] })).toEqual([login.id, docs.id, old.id]);
        expect(await listIds({ assignee: 'ADA' })).toEqual([login.id]);
        expect(await listIds({ label: 'auth' })).toEqual([login.id]);
        expect(await listIds({ label: 'auth', includeArchived: true })).toEqual([login.id, old.id]);
        expect(await listIds({ text: 'cdn' })).toEqual([cache.id]);
        expect(await listIds({ text: '100%_' })).toEqual([]);
      });

      it('groups the listing by status with the fields of each ticket', async () => {
        await create({ title: 'Ship it', priority: 'urgent', assignee: 'ada', labels: ['release'] });
        const result = await storage.call(kanbanList, { board: 'main' });
        expect(result.ok && result.value).toMatch(
          /^1 ticket on board main\n\ntodo \(1\):\n {2}#\d+ \[todo\] \(urgent\) Ship it — @ada · release · v1 · updated \d{4}-\d\d-\d\d \d\d:\d\d$/,
        );
      });

      it('updates fields, bumps the version and keeps labels edits together', async () => {
        const ticket = await create({ title: 'Tidy logs', labels: ['ops'] });
        const updated = structuredOf<{ ticket: Ticket; changed: string[] }>(
          await storage.call(kanbanUpdate, {
            id: ticket.id,
            version: 1,
            priority: 'high',
            assignee: 'ada',
            addLabels: ['logging'],
            removeLabels: ['ops'],
          }),
        );
        expect(updated.changed).toEqual(['priority', 'assignee', 'labels']);
        expect(updated.ticket).toMatchObject({
          priority: 'high',
          assignee: 'ada',
          labels: ['logging'],
          version: 2,
        });
        const unassigned = structuredOf<{ ticket: Ticket }>(
          await storage.call(kanbanUpdate, { id: ticket.id, assignee: null }),
        );
        expect(unassigned.ticket).toMatchObject({ assignee: null, version: 3 });
        expect(failure(await storage.call(kanbanUpdate, { id: ticket.id })).code).toBe('input_invalid');
      });

      it('refuses an update that carries a stale version and says the current one', async () => {
        const ticket = await create({ title: 'Pick a logo' });
        await storage.call(kanbanUpdate, { id: ticket.id, version: 1, title: 'Pick a logo (blue)' });
        const stale = failure(
          await storage.call(kanbanUpdate, { id: ticket.id, version: 1, title: 'Pick a logo (red)' }),
        );
        expect(stale.code).toBe('stale_write');
        expect(stale.error).toContain('version 2, not 1');
        expect(stale.structured).toMatchObject({
          ticketId: ticket.id,
          currentVersion: 2,
          expectedVersion: 1,
        });
        expect((await details(ticket.id)).title).toBe('Pick a logo (blue)');
        const staleMove = failure(
          await storage.call(kanbanMove, { id: ticket.id, version: 1, status: 'done' }),
        );
        expect(staleMove.code).toBe('stale_write');
      });
    });

    describe('status transitions', () => {
      it('records every move with its actor and note in the history', async () => {
        const ticket = await create({ title: 'Migrate CI' });
        await storage.call(kanbanMove, { id: ticket.id, status: 'in_progress' }, { agentName: 'builder' });
        await storage.call(kanbanMove, {
          id: ticket.id,
          status: 'blocked',
          note: 'waiting for runner quota',
        });
        await storage.call(kanbanMove, { id: ticket.id, status: 'in_progress', note: 'quota granted' });
        await storage.call(kanbanMove, { id: ticket.id, status: 'done' });
        const shown = await details(ticket.id);
        expect(shown.status).toBe('done');
        expect(shown.version).toBe(5);
        expect(shown.history.map(({ from, to, by, note }) => ({ from, to, by, note }))).toEqual([
          { from: null, to: 'todo', by: 'planner', note: null },
          { from: 'todo', to: 'in_progress', by: 'builder', note: null },
          { from: 'in_progress', to: 'blocked', by: 'planner', note: 'waiting for runner quota' },
          { from: 'blocked', to: 'in_progress', by: 'planner', note: 'quota granted' },
          { from: 'in_progress', to: 'done', by: 'planner', note: null },
        ]);
      });

      it('refuses a move the transition table does not allow and lists the allowed ones', async () => {
        const ticket = await create({ title: 'Renew certificate', status: 'blocked' });
        const refused = failure(await storage.call(kanbanMove, { id: ticket.id, status: 'done' }));
        expect(refused.code).toBe('conflict');
        expect(refused.error).toContain('cannot move from blocked to done');
        expect(refused.error).toContain('todo, in_progress, archived');
        expect((await details(ticket.id)).status).toBe('blocked');
      });

      it('treats a move to the current status as a no-op that keeps the version', async () => {
        const ticket = await create({ title: 'Idle' });
        const result = await storage.call(kanbanMove, { id: ticket.id, status: 'todo' });
        expect(structuredOf<{ moved: boolean; ticket: Ticket }>(result)).toMatchObject({
          moved: false,
          ticket: { version: 1 },
        });
      });

      it('keeps archived tickets final until they are explicitly restored to their previous status', async () => {
        const ticket = await create({ title: 'Spike: new parser' });
        await storage.call(kanbanMove, { id: ticket.id, status: 'in_progress' });
        await storage.call(kanbanArchive, { id: ticket.id, reason: 'superseded' });
        const moveBack = failure(await storage.call(kanbanMove, { id: ticket.id, status: 'in_progress' }));
        expect(moveBack.code).toBe('conflict');
        expect(moveBack.error).toContain('restore: true');
        const restored = structuredOf<{ ticket: Ticket }>(
          await storage.call(kanbanArchive, { id: ticket.id, restore: true }),
        );
        expect(restored.ticket.status).toBe('in_progress');
        const notArchived = failure(await storage.call(kanbanArchive, { id: ticket.id, restore: true }));
        expect(notArchived.code).toBe('conflict');
        expect((await details(ticket.id)).history.map((change) => change.to)).toEqual([
          'todo',
          'in_progress',
          'archived',
          'in_progress',
        ]);
      });
    });

    describe('comments and links', () => {
      it('adds comments in order without changing the ticket version', async () => {
        const ticket = await create({ title: 'Investigate flaky test' });
        await storage.call(
          kanbanComment,
          { id: ticket.id, body: 'Fails on 2 cores only.' },
          { agentName: 'tester' },
        );
        await storage.call(kanbanComment, { id: ticket.id, body: 'Race in teardown.', author: 'ada' });
        const shown = await details(ticket.id);
        expect(shown.comments.map(({ author, body }) => ({ author, body }))).toEqual([
          { author: 'tester', body: 'Fails on 2 cores only.' },
          { author: 'ada', body: 'Race in teardown.' },
        ]);
        expect(shown.version).toBe(1);
        const text = await storage.call(kanbanGet, { id: ticket.id });
        expect(text.ok && text.value).toContain('Comments (2):');
        expect(failure(await storage.call(kanbanComment, { id: 999, body: 'lost' })).code).toBe('not_found');
      });

      it('shows a typed link from both tickets and removes it on request', async () => {
        const schema = await create({ title: 'Design schema' });
        const api = await create({ title: 'Build API' });
        const linked = await storage.call(kanbanLink, { from: schema.id, to: api.id, type: 'blocks' });
        expect(linked.ok && linked.value).toBe(
          `Linked: #${schema.id} blocks #${api.id} (Design schema → Build API).`,
        );
        const again = await storage.call(kanbanLink, { from: schema.id, to: api.id, type: 'blocks' });
        expect(structuredOf<{ changed: boolean }>(again).changed).toBe(false);

        expect((await details(schema.id)).links).toEqual([
          { type: 'blocks', direction: 'outgoing', ticketId: api.id, title: 'Build API', status: 'todo' },
        ]);
        const apiText = await storage.call(kanbanGet, { id: api.id });
        expect(apiText.ok && apiText.value).toContain(`blocked by #${schema.id} Design schema [todo]`);

        await storage.call(kanbanLink, { from: schema.id, to: api.id, type: 'blocks', remove: true });
        expect((await details(api.id)).links).toEqual([]);
      });

      it('refuses links to itself or to missing tickets', async () => {
        const ticket = await create({ title: 'Lonely' });
        expect(
          failure(await storage.call(kanbanLink, { from: ticket.id, to: ticket.id, type: 'relates_to' }))
            .code,
        ).toBe('conflict');
        expect(
          failure(await storage.call(kanbanLink, { from: ticket.id, to: 77, type: 'duplicates' })).code,
        ).toBe('not_found');
      });
    });

    describe('kanban_list reducer', () => {
      async function touch(id: number, label: string): Promise<void> {
        // Timestamps have millisecond resolution; the pause makes "most recently updated" unambiguous.
        await sleep(3);
        await storage.call(kanbanUpdate, { id, addLabels: [label] });
      }

      it('summarizes a long board to counts by status and the five most urgent open tickets', async () => {
        const dataLoss = await create({ title: 'Fix data loss on crash', priority: 'urgent' });
        const leakedKey = await create({ title: 'Rotate leaked API key', priority: 'urgent' });
        const backups = await create({
          title: 'Restore nightly backups',
          priority: 'urgent',
          status: 'in_progress',
        });
        const driver = await create({
          title: 'Upgrade database driver',
          priority: 'high',
          status: 'blocked',
        });
        const rateLimit = await create({ title: 'Add rate limiting', priority: 'high' });
        const rest: Ticket[] = [];
        for (const title of [
          'Dark mode',
          'Keyboard shortcuts',
          'CSV export',
          'Profile page',
          'Search filters',
        ]) {
          rest.push(await create({ title, priority: 'medium' }));
        }
        for (const title of ['Typo on pricing page', 'Old favicon', 'Footer links']) {
          rest.push(await create({ title, priority: 'low' }));
        }
        await storage.call(kanbanMove, { id: leakedKey.id, status: 'done' });
        await storage.call(kanbanMove, { id: rest[7]!.id, status: 'done' });
        await touch(driver.id, 'db');
        await touch(rateLimit.id, 'api');
        await touch(dataLoss.id, 'storage');
        await touch(rest[2]!.id, 'export');

        const listed = await storage.call(kanbanList, {});
        const reduced = kanbanListReducer.reduce(listed, { toolName: 'kanban_list', args: {} });
        if (!listed.ok || !reduced.ok) throw new Error('expected successful results');

        expect(reduced.value.length).toBeLessThan(listed.value.length);
        expect(reduced.structured).toEqual(listed.structured);
        const lines = reduced.value.split('\n');
        expect(lines[0]).toBe('13 tickets on all boards — summarized.');
        expect(lines[1]).toBe('By status: in_progress 1 · blocked 1 · todo 9 · done 2');
        const shownIds = lines.slice(3, 8).map((line) => Number(/#(\d+)/.exec(line)?.[1]));
        expect(shownIds).toEqual([dataLoss.id, backups.id, rateLimit.id, driver.id, rest[2]!.id]);
        expect(lines[8]).toContain('8 more not shown');
      });

      it('leaves a list of ten tickets or fewer untouched', async () => {
        for (let index = 0; index < 10; index += 1) await create({ title: `Task ${index}` });
        const listed = await storage.call(kanbanList, {});
        expect(kanbanListReducer.reduce(listed, { toolName: 'kanban_list', args: {} })).toBe(listed);
      });

      it('passes failures through unchanged', async () => {
        const failed: ToolResult = { ok: false, code: 'not_available', error: 'no storage' };
        expect(kanbanListReducer.reduce(failed, { toolName: 'kanban_list', args: {} })).toBe(failed);
      });
    });
  });
}

describe('kanbanPlugin', () => {
  it('registers the eight kanban tools and the list reducer, each declaring project storage', async () => {
    const tools: Tool[] = [];
    const reducers: ToolResultReducer[] = [];
    const ctx = {
      pluginId: 'tools-kanban',
      registerTool: (tool: Tool) => {
        tools.push(tool);
        return () => {};
      },
      registerReducer: (reducer: ToolResultReducer) => {
        reducers.push(reducer);
        return () => {};
      },
      registerHook: () => () => {},
      registerBackend: () => () => {},
      services: {},
    } satisfies PluginContext;
    await kanbanPlugin.register(ctx);
    expect(defaultPlugin).toBe(kanbanPlugin);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'kanban_archive',
      'kanban_comment',
      'kanban_create',
      'kanban_get',
      'kanban_link',
      'kanban_list',
      'kanban_move',
      'kanban_update',
    ]);
    expect(
      tools.every((tool) => JSON.stringify(tool.capabilities) === '{"storage":{"scopes":["project"]}}'),
    ).toBe(true);
    expect(
      tools
        .filter((tool) => tool.annotations?.readOnly)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(['kanban_get', 'kanban_list']);
    expect(reducers).toEqual([kanbanListReducer]);
  });

  it('fails closed when no storage capability was provided', async () => {
    const result = await kanbanList.execute(kanbanList.input.parse({}), {
      capabilities: {},
    } as unknown as Parameters<typeof kanbanList.execute>[1]);
    expect(failure(result).code).toBe('not_available');
  });
});
