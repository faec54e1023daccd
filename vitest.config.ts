import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores here and in CI: two workers keep the suite fast without thrashing.
    maxWorkers: 2,
    // A test waits for events, never for a duration (fake clocks for time); 30 s is room for a
    // loaded machine, not for a race. A case that does slow work by nature (PGlite on disk,
    // many real polls) names its own limit and says why.
    testTimeout: 30_000,
    // Hooks boot PGlite (WASM, initdb, migrations), Chromium and servers: beside busy loops on
    // two cores a PGlite boot alone has taken over 50 s, so hooks get a wider safety margin.
    hookTimeout: 120_000,
  },
});
