// The console page: plain DOM, every text set as textContent (what the server sends is already
// escaped by Quiver's renderer; the page never parses it as markup).

import type {
  ConsoleAsk as Ask,
  ConsoleCall as Call,
  ConsoleMessage,
  ConsoleReview as Review,
  ConsoleSession as Session,
  ConsoleTrust as TrustView,
} from '../../src/console/wire.js';

interface Server {
  server: string;
  state: string;
  lastError?: string;
  pinnedTools?: number;
  pendingReview?: string[];
}
type Message = Exclude<ConsoleMessage, { type: 'servers' }> | { type: 'servers'; servers: Server[] };

const TOKEN_KEY = 'quiver-console-token';
const asks = new Map<string, Ask>();
const calls = new Map<string, Call>();
const sessions = new Map<string, Session>();

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function setStatus(text: string, live = false): void {
  const status = byId('status');
  status.textContent = text;
  status.classList.toggle('live', live);
}

const clock = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toLocaleTimeString());

async function secret(): Promise<string | undefined> {
  const fragment = new URLSearchParams(location.hash.slice(1));
  // The address leaves the bar at once: a screenshot or a shared screen shows no secret.
  if (location.hash) history.replaceState(null, '', location.pathname);
  const token = fragment.get('token');
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    return token;
  }
  const code = fragment.get('code');
  if (code) {
    const response = await fetch('/api/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    if (response.ok) {
      const { token: exchanged } = (await response.json()) as { token: string };
      sessionStorage.setItem(TOKEN_KEY, exchanged);
      return exchanged;
    }
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

function renderAsks(token: string): void {
  const container = byId('asks');
  // Boxes already shown stay as they are (a message being typed, the buttons under the pointer):
  // only answered asks leave and new ones join at the end.
  const shown = new Set<string>();
  for (const box of [...container.children] as HTMLElement[]) {
    const id = box.dataset.askId;
    if (id === undefined || !asks.has(id)) box.remove();
    else shown.add(id);
  }
  byId('no-asks').hidden = asks.size > 0;
  for (const ask of asks.values()) {
    if (shown.has(ask.id)) continue;
    const box = element('div', undefined, 'ask');
    box.dataset.askId = ask.id;
    box.append(element('h3', ask.headline));
    const pre = element('pre');
    let inChange = false;
    for (const line of ask.lines.slice(1)) {
      if (line === 'Change:') inChange = true;
      const className =
        inChange && /^ {4}- /.test(line) ? 'removed' : inChange && /^ {4}\+ /.test(line) ? 'added' : '';
      pre.append(element('span', `${line}\n`, className));
    }
    box.append(pre);
    const message = element('textarea');
    message.placeholder = 'Message to the model if you deny (optional)';
    message.setAttribute('aria-label', 'message to the model');
    box.append(message);
    const choices = element('div', undefined, 'choices');
    for (const choice of ask.choices) {
      const button = element('button', choice.label);
      button.dataset.choice = choice.value;
      button.addEventListener('click', () => void answer(token, ask.id, choice.value, message.value, box));
      choices.append(button);
    }
    const expires = element('span', `waits until ${clock(ask.expiresAt)}`, 'expires');
    choices.append(expires);
    box.append(choices);
    container.append(box);
  }
}

async function answer(token: string, id: string, decision: string, message: string, box: HTMLElement) {
  for (const button of box.querySelectorAll('button')) button.disabled = true;
  const response = await fetch(`/api/asks/${encodeURIComponent(id)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(decision === 'deny' && message.trim() !== '' ? { decision, message } : { decision }),
  });
  if (!response.ok) {
    const { error } = (await response.json().catch(() => ({ error: response.statusText }))) as {
      error: string;
    };
    box.append(element('p', `Not recorded: ${error}`, 'error'));
  }
}

function renderCalls(): void {
  const body = byId<HTMLTableElement>('calls').tBodies[0] as HTMLTableSectionElement;
  body.replaceChildren();
  for (const call of [...calls.values()].reverse()) {
    const row = element('tr');
    row.dataset.callId = call.callId;
    const decision = call.decision
      ? `${call.decision.behavior}${call.decision.scope ? ` (${call.decision.scope})` : ''}${call.decision.rule ? ` · ${call.decision.rule}` : ''}`
      : '';
    const progress = call.progress
      ? `${call.progress.progress}${call.progress.total === undefined ? '' : `/${call.progress.total}`}${call.progress.message ? ` ${call.progress.message}` : ''}`
      : '';
    const result =
      call.resultChars === undefined
        ? ''
        : `${call.resultChars} chars${call.resultTokens === undefined ? '' : ` · ~${call.resultTokens} tokens to the model`}`;
    const decisionCell = element('td', decision);
    if (call.decision) decisionCell.title = call.decision.reason;
    row.append(
      element('td', clock(call.startedAt)),
      element('td', call.toolName),
      element('td', call.arguments, 'args'),
      decisionCell,
      element('td', call.error ?? call.status, call.status),
      element('td', progress),
      element('td', call.durationMs === undefined ? '' : `${Math.round(call.durationMs)} ms`),
      element('td', result),
    );
    body.append(row);
  }
}

function renderSessions(): void {
  const list = byId('sessions');
  list.replaceChildren();
  for (const session of sessions.values()) {
    const state = session.closedAt === undefined ? 'open' : `closed ${clock(session.closedAt)}`;
    list.append(
      element(
        'li',
        `${session.transport} · ${session.client ?? 'client not known yet'}${session.caller === undefined ? '' : ` · caller ${session.caller}`} · personality ${session.personality} · ${session.agent} · project ${session.trust ?? 'trust not known'} · ${state} · ${session.id}`,
      ),
    );
  }
  if (sessions.size === 0) list.append(element('li', 'No session yet.', 'quiet'));
}

function renderServers(servers: Server[]): void {
  const list = byId('servers');
  list.replaceChildren();
  for (const server of servers)
    list.append(
      element(
        'li',
        `${server.server}: ${server.state}${server.lastError ? ` — ${server.lastError}` : ''} · ${server.pinnedTools ?? 0} tool definitions pinned${server.pendingReview?.length ? ` · changed, waiting for \`quiver mcp review\`: ${server.pendingReview.join(', ')}` : ''}`,
      ),
    );
  if (servers.length === 0) list.append(element('li', 'No MCP server is configured.', 'quiet'));
}

async function refreshReviews(token: string): Promise<void> {
  const response = await fetch('/api/reviews', { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) return;
  const { reviews } = (await response.json()) as { reviews: Review[] };
  const container = byId('reviews');
  const shown = new Set(
    [...container.querySelectorAll<HTMLElement>('.review')].map((box) => box.dataset.hash),
  );
  // A box the person is reading stays as it is; only changes in the list redraw it.
  if (reviews.length === shown.size && reviews.every((review) => shown.has(review.hash))) return;
  container.replaceChildren();
  byId('reviews-section').hidden = reviews.length === 0;
  for (const review of reviews) {
    const box = element('div', undefined, 'review');
    box.dataset.hash = review.hash;
    box.append(
      element('h3', `${review.tool} of MCP server ${review.server}`),
      element('p', `pinned ${review.pinnedAt}, changed ${review.changedAt}`, 'quiet'),
    );
    const pre = element('pre');
    for (const line of review.diff)
      pre.append(
        element(
          'span',
          `${line}\n`,
          line.startsWith('- ') ? 'removed' : line.startsWith('+ ') ? 'added' : '',
        ),
      );
    const approve = element('button', 'Approve this definition');
    approve.dataset.approve = review.tool;
    approve.addEventListener('click', async () => {
      approve.disabled = true;
      const answer = await fetch('/api/reviews', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ server: review.server, tool: review.tool, hash: review.hash }),
      });
      if (!answer.ok) {
        const { error } = (await answer.json().catch(() => ({ error: answer.statusText }))) as {
          error: string;
        };
        box.append(element('p', `Not approved: ${error}`, 'error'));
      }
      void refreshReviews(token);
    });
    box.append(pre, approve);
    container.append(box);
  }
}

async function refreshTrust(token: string, refused?: string): Promise<void> {
  const response = await fetch('/api/trust', { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) return;
  const { trust } = (await response.json()) as { trust: TrustView };
  const container = byId('trust');
  const waiting = trust.state !== 'trusted' && trust.cannotTrust === undefined;
  // What the person is reading stays as it is until what would be trusted changes.
  if (refused === undefined && container.dataset.hash === trust.hash) return;
  container.dataset.hash = trust.hash;
  container.replaceChildren();
  byId('trust-section').hidden = !waiting && refused === undefined;
  if (refused !== undefined) container.append(element('p', `Not trusted: ${refused}`, 'error'));
  if (!waiting) {
    if (refused !== undefined) container.append(element('p', `Project ${trust.state}.`, 'quiet'));
    return;
  }
  container.append(
    element('h3', `Project configuration of ${trust.workspace}`),
    element('p', `state: ${trust.state}${trust.recordFile ? ` · record: ${trust.recordFile}` : ''}`, 'quiet'),
  );
  const files = element('ul', undefined, 'trust-files');
  for (const file of trust.files) files.append(element('li', `${file.path} · sha256 ${file.sha256}`));
  container.append(element('h4', 'Configuration files'), files);
  const described = element('pre');
  described.textContent = trust.description.join('\n');
  container.append(described);
  if (trust.code.length > 0) {
    const code = element('ul', undefined, 'trust-code');
    for (const entry of trust.code)
      code.append(
        element(
          'li',
          `${entry.kind} ${entry.name}: ${entry.location === null ? 'not found (nothing installed may take its place)' : `${entry.location} (${entry.files} file${entry.files === 1 ? '' : 's'})`}`,
        ),
      );
    container.append(
      element('h4', 'Code it runs, pinned by content (a later change is refused at launch)'),
      code,
    );
  }
  if (trust.changes.length > 0) {
    const changes = element('ul');
    for (const change of trust.changes)
      changes.append(
        element(
          'li',
          `${change.kind} ${change.where} ${change.description}`,
          change.kind === 'widening' ? 'removed' : '',
        ),
      );
    container.append(element('h4', 'Changes since it was last trusted'), changes);
  }
  for (const warning of trust.warnings)
    container.append(element('p', `warning: left out, it does not load: ${warning}`, 'error'));
  const button = element('button', 'Trust this configuration');
  button.dataset.trust = trust.hash;
  button.addEventListener('click', async () => {
    button.disabled = true;
    const answer = await fetch('/api/trust', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ hash: trust.hash }),
    });
    if (answer.ok) {
      container.replaceChildren(element('p', `Trusted ${trust.workspace}.`, 'trusted'));
      container.dataset.hash = '';
      return;
    }
    const { error } = (await answer.json().catch(() => ({ error: answer.statusText }))) as { error: string };
    void refreshTrust(token, error);
  });
  container.append(button);
}

function apply(message: Message, token: string): void {
  switch (message.type) {
    case 'session':
      sessions.set(message.session.id, message.session);
      renderSessions();
      break;
    case 'call':
      calls.set(message.call.callId, message.call);
      renderCalls();
      break;
    case 'ask':
      asks.set(message.ask.id, message.ask);
      renderAsks(token);
      break;
    case 'ask_done':
      asks.delete(message.id);
      renderAsks(token);
      break;
    case 'servers':
      renderServers(message.servers);
      void refreshReviews(token);
      void refreshTrust(token);
      break;
  }
}

/** Server-sent events read from a fetch: EventSource cannot send the secret as a header. */
async function follow(token: string): Promise<void> {
  const response = await fetch('/api/events', { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) {
    const { error } = (await response.json().catch(() => ({ error: response.statusText }))) as {
      error: string;
    };
    throw new Error(error);
  }
  setStatus('live', true);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data === undefined) continue;
      const parsed = JSON.parse(data);
      if (event === 'snapshot') {
        const snapshot = parsed as { sessions: Session[]; calls: Call[]; asks: Ask[]; servers: Server[] };
        sessions.clear();
        calls.clear();
        asks.clear();
        for (const session of snapshot.sessions) sessions.set(session.id, session);
        for (const call of snapshot.calls) calls.set(call.callId, call);
        for (const ask of snapshot.asks) asks.set(ask.id, ask);
        renderSessions();
        renderCalls();
        renderAsks(token);
        renderServers(snapshot.servers);
        void refreshReviews(token);
        void refreshTrust(token);
      } else apply(parsed as Message, token);
    }
  }
}

async function searchHistory(token: string): Promise<void> {
  const query = byId<HTMLInputElement>('history-query').value;
  const response = await fetch(`/api/history?q=${encodeURIComponent(query)}&limit=200`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = byId<HTMLTableElement>('history').tBodies[0] as HTMLTableSectionElement;
  body.replaceChildren();
  if (!response.ok) return;
  const { calls: found } = (await response.json()) as {
    calls: Array<{
      sessionId: string;
      toolName: string;
      arguments: string;
      status: string;
      code?: string;
      startedAt?: number;
      durationMs?: number;
    }>;
  };
  for (const call of found) {
    const row = element('tr');
    row.append(
      element('td', call.startedAt === undefined ? '' : new Date(call.startedAt).toLocaleString()),
      element('td', call.sessionId.slice(0, 8)),
      element('td', call.toolName),
      element('td', call.arguments, 'args'),
      element('td', call.code ?? call.status, call.status === 'ok' ? 'ok' : 'error'),
      element('td', call.durationMs === undefined ? '' : `${Math.round(call.durationMs)} ms`),
    );
    body.append(row);
  }
}

async function main(): Promise<void> {
  const token = await secret();
  if (!token) {
    setStatus('no secret: open the address `quiver console` prints');
    return;
  }
  byId('history-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void searchHistory(token);
  });
  void searchHistory(token);
  for (;;) {
    try {
      await follow(token);
      setStatus('the server stopped; reconnecting…');
    } catch (error) {
      setStatus(`not connected: ${error instanceof Error ? error.message : String(error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

void main();
