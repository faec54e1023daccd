import { isLooseMatch, looseReading, untimedReason, type Tally } from '../model/tally.js';
import { outcomeLine, thresholdLine, wagonCount } from './votal-lines.js';

/** The count for a terminal: plain text, every number with the posts behind it. */
export function renderText(t: Tally): string {
  const lines: string[] = [];
  const asOf = t.asOfPost === null ? '' : ` as of post ${t.asOfPost}`;
  lines.push(`Vote count - Day ${t.day} (${t.ruleset})${asOf}, ${t.postsRead} posts read`);
  lines.push(thresholdLine(t), '');
  if (t.wagons.length === 0) lines.push('No votes yet.');
  for (const w of t.wagons) {
    const voters = w.voters.map((v) => `${v.player} (#${v.post}${v.weight !== 1 ? `, x${v.weight}` : ''})`).join(', ');
    lines.push(`${w.target} - ${wagonCount(w)}: ${voters}`);
    for (const e of w.explain ?? []) lines.push(`    ${because(e)}`);
  }
  lines.push(`Not voting (${t.notVoting.length}): ${t.notVoting.join(', ') || '-'}`);
  // Every vote counted on a loose reading of the name: the GM checks each one.
  const loose = t.wagons.flatMap((w) =>
    w.voters.flatMap((v) => (isLooseMatch(v.match) ? [{ v, target: w.target, match: v.match }] : [])),
  );
  if (loose.length) {
    lines.push('', 'Names read loosely (check them):');
    for (const { v, target, match } of loose)
      lines.push(`  #${v.post} ${v.player} → ${target} (${looseReading(v.written, match, v.from)})`);
  }
  if (t.violations.length) {
    lines.push('', 'Rule violations:');
    for (const v of t.violations)
      lines.push(`  #${v.post} ${v.player}: ${v.kind} (${v.consequence}) ${v.detail}`.trimEnd());
  }
  if (t.flags.length) {
    lines.push('', 'For the GM to check:');
    for (const f of t.flags) {
      const who = f.player ? ` ${f.player}` : '';
      const cands = f.candidates.length ? ` (could be ${f.candidates.join(' or ')})` : '';
      const note = f.note ? ` (${f.note})` : '';
      lines.push(`  #${f.post}${who}: ${f.kind} "${f.raw}"${cands}${note}`);
    }
  }
  if (t.untimed?.length) {
    lines.push('', 'Times not read (the clock cannot judge these posts):');
    for (const u of t.untimed) lines.push(`  #${u.post} ${u.player}: ${untimedReason(u.post)}`);
  }
  lines.push('', outcomeLine(t));
  for (const e of t.outcome.explain ?? []) lines.push(`    ${because(e)}`);
  return lines.join('\n') + '\n';
}

/** One reason behind a number (`--explain`): the post it happened at, and what. */
function because(e: { post: number | null; text: string }): string {
  return e.post === null ? e.text : `#${e.post}: ${e.text}`;
}
