import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores here and in CI: two workers keep the suite fast without thrashing.
    maxWorkers: 2,
    // A test waits for events, never for a duration (fake clocks for time): the limit only
    // ends a test that hangs. 120 s is room for CI on a busy machine (a CPU-heavy case, the
    // 200 000-sibling body or every adapter over deep markup, took over 30 s at load 20+);
    // a case that does slow work by nature (PGlite on disk, many real polls) names its own
    // limit and says why.
    testTimeout: 120_000,
    // Hooks boot PGlite (WASM, initdb, migrations), Chromium and servers: beside busy loops on
    // two cores a PGlite boot alone has taken over 50 s, so hooks get a wider safety margin.
    hookTimeout: 300_000,
  },
});
