import type { Action, PostReading } from '../model/action.js';
import { EngineId } from '../model/engine.js';
import type { EditMarker } from '../model/post.js';
import type { Roster } from '../model/roster.js';
import { isKeywordPhrase, keywordLetters } from '../parse/keyword.js';
import { keywordTargets } from '../parse/keyword-targets.js';
import { resolveName } from '../parse/names.js';
import { readPost } from '../parse/read-post.js';
import { loadRuleset } from '../rules/load-ruleset.js';
import type { Ruleset } from '../rules/ruleset.js';
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
  /** Players who are dead, comma-separated: a vote for one goes to review. */
  dead?: string;
  /** Replacements, comma-separated `Old>New`: the old name still names New's slot. */
  replaced?: string;
  /** The forum's edit note for the post ("Last edited by Bob ..."): an edit violation. */
  edited?: string;
  /** A GM correction of this post's reading: a player, the No Lynch name, or `none` (ignore its vote). */
  correct?: string;
}

/**
 * Signature blocks the engines print right after the body element (phpBB `div.signature`,
 * XenForo `.message-signature`, vBulletin `blockquote.signature` / `.post-signature`).
 * They are never inside the body a page adapter reads, but a body pasted into `votal parse`
 * may carry one: it is the forum's boilerplate, not the post.
 */
const SIGNATURES = 'div.signature, .message-signature, blockquote.signature, .signaturecontainer, .post-signature';

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
  const listed = rosterFromOptions(opts);
  if (!listed) throw new CliError('name the players with --players "A,B,C" or --players-file F');
  const roster = withReplacements(withDead(listed, opts.dead), opts.replaced);
  if (!html.trim()) throw new CliError('no post body on stdin: pipe the HTML of one post body into votal parse');
  const markup = adapter.descriptor.body;
  const body = parseFragment(html, { ...markup, signature: markup.signature ?? SIGNATURES }, opts.url);
  const edit: EditMarker | null = opts.edited?.trim() ? { at: null, by: null, text: opts.edited.trim() } : null;
  let reading = readPost({ body, edit }, roster, ruleset);
  if (opts.correct !== undefined)
    reading = corrected(reading, correctionTarget(opts.correct, roster, ruleset), ruleset);
  const output = opts.format === 'json' ? JSON.stringify(reading, null, 2) + '\n' : readingText(reading);
  return { reading, output };
}

function names(list: string): string[] {
  return list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
}

function slotIndex(roster: Roster, name: string, option: string): number {
  const i = roster.findIndex((s) => s.name.toLowerCase() === name.toLowerCase());
  if (i < 0) throw new CliError(`${option}: "${name}" is not in the player list`);
  return i;
}

function withDead(roster: Roster, dead: string | undefined): Roster {
  if (!dead) return roster;
  const out = roster.map((s) => ({ ...s }));
  for (const name of names(dead)) out[slotIndex(out, name, '--dead')]!.alive = false;
  return out;
}

function withReplacements(roster: Roster, replaced: string | undefined): Roster {
  if (!replaced) return roster;
  const out = roster.map((s) => ({ ...s, formerNames: [...s.formerNames] }));
  for (const pair of names(replaced)) {
    const m = /^(.+?)\s*>\s*(.+)$/.exec(pair);
    if (!m) throw new CliError(`--replaced: write each replacement as Old>New, not "${pair}"`);
    out[slotIndex(out, m[2]!.trim(), '--replaced')]!.formerNames.push(m[1]!.trim());
  }
  return out;
}

/** The GM's target as the tally would count it: a slot's canonical name, the No Lynch name, or null. */
function correctionTarget(written: string, roster: Roster, ruleset: Ruleset): string | null {
  const w = written.trim();
  if (w.toLowerCase() === 'none') return null;
  for (const t of keywordTargets(ruleset)) {
    if (isKeywordPhrase(w, [t.name, ...t.keywords].map(keywordLetters))) return t.name;
  }
  const name = resolveName(w, roster, ruleset.names, { trailingWords: false });
  if (name.target === null || !['exact', 'alias'].includes(name.match)) {
    throw new CliError(
      `--correct: "${w}" is not a player${name.candidates.length ? ` (did you mean ${name.candidates.join(' or ')}?)` : ''}; give a name from the player list, or "none"`,
    );
  }
  return name.target;
}

/**
 * The reading with the GM's correction applied, as the tally applies a `correct` event:
 * the action that decided the post's effect (or a new one, when the parser read none)
 * becomes the GM's, with `source: "gm"` and `match: "gm"`; the effect is the GM's vote,
 * or `none` when the GM ignores the post's vote. Side actions are left as read.
 */
function corrected(reading: PostReading, target: string | null, ruleset: Ruleset): PostReading {
  const actions = [...reading.actions];
  const at = decidingIndex(actions, ruleset);
  const parsed = at >= 0 ? actions[at] : undefined;
  const gm: Action = {
    kind: 'vote',
    target,
    match: 'gm',
    raw: parsed?.raw ?? '',
    written: parsed?.written ?? null,
    candidates: [],
    score: null,
    source: 'gm',
  };
  if (parsed) actions[at] = gm;
  else actions.push(gm);
  return {
    actions,
    effect: target === null ? { kind: 'none', target: null, reason: null } : { kind: 'vote', target, reason: null },
    violations: reading.violations,
  };
}

/** The last vote or unvote, as read-post's effect takes it ("Unvote: Hammer" is a side action's). */
function decidingIndex(actions: readonly Action[], ruleset: Ruleset): number {
  const side = [...(ruleset.votes.side.hammer ?? []), ...(ruleset.votes.side.filibuster ?? [])].map(keywordLetters);
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i]!;
    if (a.kind === 'unvote' && a.written !== null && side.length && isKeywordPhrase(a.written, side)) continue;
    if (a.kind === 'vote' || a.kind === 'unvote') return i;
  }
  return -1;
}

function readingText(r: PostReading): string {
  const lines = r.actions.map(
    (a) =>
      `${a.kind}${a.target ? ` ${a.target}` : ''} [${a.match}] "${a.raw}"${a.source === 'gm' ? ' (GM correction)' : ''}`,
  );
  if (lines.length === 0) lines.push('no actions');
  const e = r.effect;
  lines.push(`effect: ${e.kind}${e.target ? ` ${e.target}` : ''}${e.reason ? ` (${e.reason})` : ''}`);
  for (const v of r.violations) lines.push(`violation: ${v.kind} ${v.detail}`);
  return lines.join('\n') + '\n';
}
