import type { Tally } from '../model/tally.js';
import { escapeBbcode, escapeBbcodeUrl } from './escape.js';
import { outcomeLine, thresholdLine, wagonCount } from './votal-lines.js';

/**
 * The votal as a BBCode post (XenForo, phpBB, vBulletin, ProBoards, SMF, MyBB share
 * [b] and [url=]). Every name and snippet from the forum goes through escapeBbcode.
 */
export function renderBbcode(t: Tally): string {
  const e = escapeBbcode;
  const lines: string[] = [];
  lines.push(`[b]Vote count - Day ${t.day}[/b]`, '');
  if (t.wagons.length === 0) lines.push('No votes yet.');
  for (const w of t.wagons) {
    const voters = w.voters
      .map((v) => (v.permalink ? `[url=${escapeBbcodeUrl(v.permalink)}]${e(v.player)}[/url]` : e(v.player)))
      .join(', ');
    lines.push(`[b]${e(w.target)}[/b] - ${wagonCount(w)}: ${voters}`);
  }
  lines.push('', `[b]Not voting:[/b] ${t.notVoting.map(e).join(', ') || '-'}`, '', e(thresholdLine(t)));
  if (t.outcome.status !== 'open') lines.push(`[b]${e(outcomeLine(t))}[/b]`);
  return lines.join('\n') + '\n';
}
