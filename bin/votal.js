#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
try {
  await import('../dist/src/cli/bin.js');
} catch (e) {
  if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist/src/cli/bin.js')) {
    process.stderr.write('votal: not built yet - run `npm ci` (or `npm run build`) in the votal folder first\n');
    process.exitCode = 1;
  } else {
    throw e;
  }
}
