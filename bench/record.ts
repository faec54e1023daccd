import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Adds an entry (a `## ` section) to BENCHMARKS.md, newest first, and says where. */
export function recordBenchmark(root: string, entry: string): string {
  const file = join(root, 'BENCHMARKS.md');
  const prev = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmarks\n\nResults of `npm run bench`, newest first. Each entry names the machine and date.\n';
  const [head, ...rest] = prev.split(/\n(?=## )/);
  writeFileSync(file, [head!.trimEnd(), entry.trim(), ...rest.map((r) => r.trim())].join('\n\n') + '\n');
  return file;
}
