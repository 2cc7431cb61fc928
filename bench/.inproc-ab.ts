// temporary: interleaved in-process CPU per session.execute(terminal_list) of several builds
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const builds = (process.env.BUILDS ?? '/work/main').split(',');
process.env.XDG_DATA_HOME = mkdtempSync(path.join(os.tmpdir(), 'qab-xdg-'));
const sides = [];
for (const root of builds) {
  const { createQuiver } = await import(pathToFileURL(path.join(root, 'packages/wiring/dist/index.js')).href);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qab-'));
  mkdirSync(path.join(dir, 'personalities'));
  writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: bench\n');
  writeFileSync(path.join(dir, 'personalities/bench.yaml'), 'id: bench\nplugins: [tools-terminal]\npermissions:\n  allow: [terminal_list]\n');
  const quiver = await createQuiver({ workspace: dir, trustProject: true });
  const session = quiver.createSession({});
  session.pool();
  sides.push({ root, session, cpu: [] as number[] });
}
let id = 0;
const run = async (session: any, count: number) => {
  for (let i = 0; i < count; i++) {
    const [r] = await session.execute([{ id: `c${id++}`, name: 'terminal_list', args: {} }]);
    if (!r?.ok) throw new Error(JSON.stringify(r));
    await new Promise((resolve) => setImmediate(resolve));
  }
};
for (const s of sides) await run(s.session, 3000);
const N = Number(process.env.N ?? 3000);
for (let round = 0; round < Number(process.env.ROUNDS ?? 9); round++) {
  const order = round % 2 ? [...sides].reverse() : sides;
  for (const s of order) {
    await new Promise((r) => setTimeout(r, 30));
    const c0 = process.cpuUsage();
    await run(s.session, N);
    await new Promise((r) => setTimeout(r, 30));
    const c = process.cpuUsage(c0);
    s.cpu.push((c.user + c.system) / N);
  }
}
for (const s of sides) { const v = [...s.cpu].sort((a, b) => a - b); console.log('median CPU µs/call (all threads)', v[Math.floor(v.length / 2)]!.toFixed(1), s.root); }
for (const s of sides) await s.session.close();
