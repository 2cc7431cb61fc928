/**
 * Shrinks a failing command by delta debugging over its characters: drops ever smaller slices
 * while `stillFails` holds, within `budget` evaluations (each one is a run of bash).
 */
export async function minimizeCommand(
  command: string,
  stillFails: (candidate: string) => Promise<boolean>,
  budget = 150,
): Promise<string> {
  let current = command;
  let parts = 2;
  let evaluations = 0;
  const tried = new Set<string>();
  while (current.length > 1 && evaluations < budget) {
    const size = Math.ceil(current.length / parts);
    let shrunk = false;
    for (let start = 0; start < current.length && evaluations < budget; start += size) {
      const candidate = current.slice(0, start) + current.slice(start + size);
      if (candidate.trim() === '' || tried.has(candidate)) continue;
      tried.add(candidate);
      evaluations++;
      if (await stillFails(candidate)) {
        current = candidate;
        parts = Math.max(parts - 1, 2);
        shrunk = true;
        break;
      }
    }
    if (shrunk) continue;
    if (size <= 1) break;
    parts = Math.min(parts * 2, current.length);
  }
  return current;
}
