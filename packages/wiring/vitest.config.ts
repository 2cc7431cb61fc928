import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Pins of MCP tool definitions and trust records go to a scratch directory, never the user's.
    env: { XDG_DATA_HOME: path.join(os.tmpdir(), `quiver-wiring-xdg-${process.pid}`) },
  },
});
