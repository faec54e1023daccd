/**
 * Loaded with `node --import` into a timed `votal` run by cli-start.bench: writes the
 * process's peak resident memory (KiB) to VOTAL_BENCH_RSS_FILE as it exits.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.VOTAL_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
