import { createHash } from 'node:crypto';
import type { AuditAction, AuditEntry } from '../model/audit.js';
import type { DeathProposal, GmCount } from '../model/gm-count.js';
import type { Tally } from '../model/tally.js';

/**
 * Deaths the GM's counts imply (issue #24): a count that states fewer alive than Votal has
 * ("With 13 alive" beside Votal's 14) and leaves some of Votal's living off entirely. With
 * one such player and one alive fewer, the death is proposed for the GM to record; anything
 * else (several left off, more than one alive fewer, a name on the count Votal cannot read,
 * lines not read) is a note listing who is left off: the count alone cannot say who died.
 * A count without a not-voting line need not name everyone: it implies nothing.
 */
export const DEATH_RECORD = 'check.death-record' satisfies AuditAction;
export const DEATH_DISMISS = 'check.death-dismiss' satisfies AuditAction;

/** One GM count as checked: the count, Votal's tally at the post it was compared at. */
export interface CheckedCount {
  count: GmCount;
  tally: Tally;
  comparedTo: number;
  permalink: string | null;
}

/** The deaths the counts imply, the first count of each, less those the GM answered. */
export function deathProposals(checked: readonly CheckedCount[], answered: ReadonlySet<string>): DeathProposal[] {
  const byWho = new Map<string, DeathProposal>();
  for (const c of checked) {
    const found = impliedDeath(c);
    if (!found) continue;
    const who = found.player ?? `?${found.candidates.join('\u0000')}`;
    const first = byWho.get(who);
    if (first) first.posts.push(c.count.post);
    else byWho.set(who, found);
  }
  return [...byWho.values()].filter((p) => !answered.has(p.key));
}

/** The death one count implies, or null. */
export function impliedDeath(c: CheckedCount): DeathProposal | null {
  const stated = c.count.stated?.alive ?? null;
  const alive = c.tally.players.length;
  if (stated === null || stated >= alive || c.count.notVoting === null) return null;
  const named = namedOn(c.count);
  const candidates = c.tally.players.filter((p) => !named.has(p));
  if (candidates.length === 0) return null;
  // An unread name may be a left-off player written otherwise: then the count names no one for sure.
  const sure = candidates.length === 1 && alive - stated === 1 && c.count.unread.length === 0;
  const player = sure && c.count.linesNotRead === 0 ? candidates[0]! : null;
  const post = c.count.post;
  const says = `Your count at #${post} lists ${stated} alive`;
  const text = player
    ? `${says} and leaves off ${player}: record ${player}'s death?`
    : `${says}, Votal has ${alive}; it leaves off ${candidates.join(', ')}: who died is yours to record`;
  return {
    key: digest(`death:${player ?? `?${candidates.join(',')}`}:${post}`),
    countPost: post,
    permalink: c.permalink,
    posts: [post],
    stated,
    alive,
    candidates,
    player,
    at: c.comparedTo,
    text,
  };
}

/** Every player a count names: wagon targets, voters (struck too), the not-voting line. */
function namedOn(count: GmCount): Set<string> {
  const named = new Set<string>();
  for (const w of count.wagons) {
    if (w.target !== null) named.add(w.target);
    for (const v of w.voters) if (v.player !== null) named.add(v.player);
  }
  for (const v of count.notVoting ?? []) if (v.player !== null) named.add(v.player);
  return named;
}

/** The keys of the death proposals the GM answered (recorded or dismissed). */
export function answeredDeaths(audit: readonly AuditEntry[]): Set<string> {
  return new Set(
    audit.filter((a) => a.action === DEATH_RECORD || a.action === DEATH_DISMISS).map((a) => String(a.detail['key'])),
  );
}

const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);
