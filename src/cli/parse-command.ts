import type { PostReading } from '../model/action.js';
import { EngineId } from '../model/engine.js';
import { readPost } from '../parse/read-post.js';
import { loadRuleset } from '../rules/load-ruleset.js';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import { CliError } from './exit-codes.js';
import { rosterFromOptions } from './players.js';

export interface ParseOptions {
  engine: string;
  players?: string;
  playersFile?: string;
  ruleset: string;
  /** The forum's address: links to it are internal. */
  url: string;
  format: 'json' | 'text';
}

/** `votal parse`: one post's body HTML (as the engine renders it) in, its reading out. */
export function runParse(html: string, opts: ParseOptions): { reading: PostReading; output: string } {
  const engine = EngineId.safeParse(opts.engine);
  if (!engine.success) throw new CliError(`unknown engine "${opts.engine}" (known: ${EngineId.options.join(', ')})`);
  let adapter;
  try {
    adapter = adapterOf(engine.data);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  let ruleset;
  try {
    ruleset = loadRuleset(opts.ruleset);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const roster = rosterFromOptions(opts);
  if (!roster) throw new CliError('name the players with --players "A,B,C" or --players-file F');
  if (!html.trim()) throw new CliError('no post body on stdin: pipe the HTML of one post body into votal parse');
  const body = parseFragment(html, adapter.descriptor.body, opts.url);
  const edit = null;
  const reading = readPost({ body, edit }, roster, ruleset);
  const output = opts.format === 'json' ? JSON.stringify(reading, null, 2) + '\n' : readingText(reading);
  return { reading, output };
}

function readingText(r: PostReading): string {
  const lines = r.actions.map((a) => `${a.kind}${a.target ? ` ${a.target}` : ''} [${a.match}] "${a.raw}"`);
  if (lines.length === 0) lines.push('no actions');
  const e = r.effect;
  lines.push(`effect: ${e.kind}${e.target ? ` ${e.target}` : ''}${e.reason ? ` (${e.reason})` : ''}`);
  for (const v of r.violations) lines.push(`violation: ${v.kind} ${v.detail}`);
  return lines.join('\n') + '\n';
}
