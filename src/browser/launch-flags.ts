/**
 * Chromium flags known to work on these machines (research/ecosystem.md §4). Without the
 * background-networking ones Chromium floods a closed network with refused connections
 * (updates, sync, field trials). The fresh `--user-data-dir` is added per launch.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
