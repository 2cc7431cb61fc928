// temporary: in-process session.execute of terminal_list, as serve runs it (profiled with --cpu-prof)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createQuiver } from '@quiver/wiring';
import { ProjectGrantStore } from '@quiver/permissions';
if (process.env.NOGRANTS) ProjectGrantStore.prototype.list = () => [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'qin-'));
mkdirSync(path.join(dir, 'personalities'));
writeFileSync(path.join(dir, 'quiver.yaml'), 'defaultPersonality: bench\n');
writeFileSync(path.join(dir, 'personalities/bench.yaml'), 'id: bench\nplugins: [tools-terminal]\npermissions:\n  allow: [terminal_list]\n');
process.env.XDG_DATA_HOME = mkdtempSync(path.join(os.tmpdir(), 'qin-xdg-'));
const quiver = await createQuiver({ workspace: dir, trustProject: true });
const session = quiver.createSession(process.env.NOLOG ? ({ log: false } as never) : {});
session.pool();
const n = Number(process.env.N ?? 20000);
const run = async (count: number) => {
  for (let i = 0; i < count; i++) {
    const [r] = await session.execute([{ id: `c${i}`, name: 'terminal_list', args: {} }]);
    if (!r?.ok) throw new Error(JSON.stringify(r));
    await new Promise((resolve) => setImmediate(resolve));
  }
};
await run(2000);
for (let k = 0; k < Number(process.env.K ?? 1); k++) {
const c0 = process.cpuUsage(); const t0 = performance.now();
await run(n);
const c = process.cpuUsage(c0);
console.log(process.env.TAG ?? '', 'wall µs/call', (((performance.now() - t0) / n) * 1000).toFixed(1), 'cpu µs/call', ((c.user + c.system) / n).toFixed(1));
}
await session.close();
await quiver.close?.();
