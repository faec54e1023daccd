/**
 * The vote grammar alone, over every post body we have: the parse-case fixtures
 * (fixtures/parse-cases), the rendered fixture pages (fixtures/<engine>/) and the real
 * pages (../shared/forum-samples, harvest included), each post's own lines read under
 * every ruleset and under variants of the grammar's settings.
 *
 *   npx tsx scripts/grammar-readings.ts print > readings.txt   every reading, one per line
 *   npx tsx scripts/grammar-readings.ts time [rounds]          CPU time of findActions alone
 *   npx tsx scripts/grammar-readings.ts dump lines.json        the posts' lines, for `time 20 lines.json`
 *
 * `print` is how a change to the grammar is shown not to change what it reads: print
 * before and after, and diff (or compare the `sha256` on the last line). `time` runs only
 * `findActions` over inputs read once beforehand, so the rest of the pipeline does not
 * blur the figure; it reports the best of several windows of CPU time (process.cpuUsage),
 * which other work on a shared machine does not add to.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { adapterOf, engineFromHtml } from '../scrapers/identify.js';
import { adapters } from '../scrapers/registry.js';
import { parseFragment } from '../scrapers/fragment.js';
import { DEFAULT_PROFILE } from '../scrapers/site-profile.js';
import { packageRoot } from '../src/config/package-root.js';
import type { Body } from '../src/model/body.js';
import { EngineId } from '../src/model/engine.js';
import { keywordTargets } from '../src/parse/keyword-targets.js';
import { type OwnLine, ownLines } from '../src/parse/own-text.js';
import { findActions, type KeywordTarget } from '../src/parse/vote-grammar.js';
import { loadRuleset } from '../src/rules/load-ruleset.js';
import type { VoteGrammar } from '../src/rules/ruleset.js';
import { loadCases } from '../test/parse-cases/load-cases.js';

const root = packageRoot(import.meta.url);
const shared = resolve(root, '../shared/forum-samples');

function htmlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const full = join(dir, f);
    if (statSync(full).isDirectory()) return htmlFiles(full);
    return f.endsWith('.html') ? [full] : [];
  });
}

/** Every post body of a page Votal reads; a page it refuses gives none. */
function pageBodies(html: string, url: string): Body[] {
  const engine = engineFromHtml(html);
  const adapter = adapters.find((a) => a.descriptor.engine === engine);
  if (!adapter) return [];
  try {
    return adapter
      .parsePage(html, { url, profile: DEFAULT_PROFILE, now: '2026-01-01T00:00:00Z' })
      .posts.map((p) => p.body);
  } catch {
    return [];
  }
}

function bodies(): Body[] {
  const out: Body[] = [];
  for (const cases of loadCases().values()) {
    for (const c of cases) {
      const engine = EngineId.parse(c.engine);
      out.push(parseFragment(c.html, adapterOf(engine).descriptor.body, c.url));
    }
  }
  const pages = [
    ...htmlFiles(join(root, 'fixtures')),
    ...htmlFiles(shared).filter((f) => !f.includes('/templates/')),
  ].sort();
  for (const file of pages) {
    const buf = readFileSync(file);
    const html = file.includes('vbulletin3') ? new TextDecoder('windows-1252').decode(buf) : buf.toString('utf8');
    out.push(...pageBodies(html, 'https://forum.example.com/thread/1/'));
  }
  const harvest = join(shared, 'harvest');
  if (existsSync(harvest)) {
    for (const f of readdirSync(harvest)
      .filter((x) => x.endsWith('.json'))
      .sort()) {
      const page = JSON.parse(readFileSync(join(harvest, f), 'utf8')) as { url: string; html: string };
      out.push(...pageBodies(page.html, page.url));
    }
  }
  return out;
}

interface Grammar {
  name: string;
  votes: VoteGrammar;
  targets: KeywordTarget[];
}

/** Every ruleset's own grammar, and the plurality grammar with each setting varied. */
function grammars(variants: boolean): Grammar[] {
  const names = readdirSync(join(root, 'rulesets'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
  const out: Grammar[] = names.map((name) => {
    const r = loadRuleset(name);
    return { name, votes: r.votes, targets: keywordTargets(r) };
  });
  if (!variants) return out;
  const base = loadRuleset('plurality');
  for (const bold of ['required', 'optional'] as const)
    for (const colon of ['required', 'optional'] as const)
      for (const marker of ['any', 'hash', 'tag', 'hash-or-tag'] as const)
        for (const ownLine of [false, true])
          for (const spoilers of [false, true])
            for (const emptyVote of ['unvote', 'ignore', 'review'] as const)
              out.push({
                name: `plurality ${bold} ${colon} ${marker} ${ownLine} ${spoilers} ${emptyVote}`,
                votes: { ...base.votes, bold, colon, marker, ownLine, spoilers, emptyVote },
                targets: keywordTargets(base),
              });
  return out;
}

const [mode = 'print', roundsArg, from] = process.argv.slice(2);
// `dump FILE` writes the posts' lines, `time ROUNDS FILE` reads them back: a run under
// `valgrind --tool=callgrind` then spends its instructions on the grammar, not on pages.
const posts: OwnLine[][] =
  mode === 'time' && from
    ? (JSON.parse(readFileSync(from, 'utf8')) as OwnLine[][])
    : bodies()
        .map((b) => ownLines(b))
        .filter((l) => l.length > 0);

if (mode === 'print') {
  const hash = createHash('sha256');
  let readings = 0;
  for (const g of grammars(true)) {
    posts.forEach((lines, i) => {
      const line = `${g.name} #${i} ${JSON.stringify(findActions(lines, g.votes, g.targets))}\n`;
      hash.update(line);
      process.stdout.write(line);
      readings++;
    });
  }
  process.stdout.write(`readings: ${readings} (${posts.length} posts), sha256 ${hash.digest('hex')}\n`);
} else if (mode === 'time') {
  const gs = grammars(false);
  const rounds = Number(roundsArg ?? 20);
  const round = (): number => {
    let n = 0;
    for (const g of gs) for (const lines of posts) n += findActions(lines, g.votes, g.targets).actions.length;
    return n;
  };
  const windows = Number(process.env.WINDOWS ?? 5);
  for (let i = 0; i < windows; i++) round(); // warm-up: the JIT settles
  let best = Infinity;
  for (let w = 0; w < windows; w++) {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < rounds; i++) round();
    const cpu = process.cpuUsage(cpu0);
    best = Math.min(best, (cpu.user + cpu.system) / 1000 / rounds);
  }
  const lineCount = posts.reduce((n, p) => n + p.length, 0);
  console.log(
    `${posts.length} posts, ${lineCount} lines, ${gs.length} grammars: ${best.toFixed(2)} ms CPU per round (best of ${windows} windows of ${rounds})`,
  );
} else if (mode === 'dump' && roundsArg) {
  writeFileSync(roundsArg, JSON.stringify(posts));
} else {
  console.error('usage: grammar-readings.ts print | time [rounds [lines.json]] | dump lines.json');
  process.exit(2);
}
