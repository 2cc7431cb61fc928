import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['../../scripts/vitest-runtime-dir.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
