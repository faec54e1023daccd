/**
 * Votes Votal drops without a word (issue #24, "never silent"): every post of the real
 * MafiaScum games (bench/donbot-games.ts) whose own text holds an official vote tag
 * (MafiaScum's `[vote]`, rendered `span.bbvote`) or a bold "vote:" / "unvote:" where the
 * reading has no action, no review and no format violation: the GM would never hear of it.
 *
 *   npx tsx bench/silent-votes.ts [--game ID] [--list]
 *
 * Posts are read as bench/real-games.ts reads them (the phpBB adapter's body markup, the
 * shipped `mafiascum-majority` ruleset), with every slot's names on the roster and alive:
 * whether a vote is read at all does not depend on the Day. The moderators' posts are left
 * out (their counts quote votes). A tag inside a quote, a signature or struck text is not
 * the poster's vote and is not looked at.
 */
import { pathToFileURL } from 'node:url';
import { parseFragment } from '../scrapers/fragment.js';
import { adapterOf } from '../scrapers/identify.js';
import type { PostReading } from '../src/model/action.js';
import type { Roster } from '../src/model/roster.js';
import { lineText, ownLines } from '../src/parse/own-text.js';
import { readPost } from '../src/parse/read-post.js';
import { loadRuleset } from '../src/rules/load-ruleset.js';
import { type ArchiveGame, fromMirror, mirrorProblem, postsOf, readArchive, SOURCE } from './donbot-games.js';

const markup = adapterOf('phpbb').descriptor.body;
const ruleset = loadRuleset('mafiascum-majority');
/** Put in front of each official vote tag's text, so the poster's own lines show where tags stand. */
const TAG_MARK = '\uE000';
const BBVOTE = /<span class="bbvote"[^>]*>/gu;
const BOLD_VOTE = /(?:^|[^\p{L}])(?:un-?|re-?)?vote\s*[:：]/iu;

/** What kind of vote-shaped text a post's own lines hold: an official tag, a bold "vote:", or none. */
function voteShape(html: string, url: string): 'tag' | 'bold' | null {
  const marked = html.includes('bbvote') ? html.replace(BBVOTE, (m) => `${m}${TAG_MARK}`) : html;
  const lines = ownLines(parseFragment(marked, markup, url));
  if (lines.some((l) => lineText(l).includes(TAG_MARK))) return 'tag';
  return lines.some((l) => l.some((r) => r.bold && BOLD_VOTE.test(r.text))) ? 'bold' : null;
}

/**
 * Whether a post's vote-shaped text (an official tag, a bold "vote:") was dropped without a
 * word: no action, no review, no format violation (bench/real-games.ts scores it Votal's miss).
 */
export function isSilentVote(html: string, url: string, reading: PostReading): boolean {
  return isSilent(reading) && voteShape(html, url) !== null;
}

function isSilent(reading: PostReading): boolean {
  return (
    reading.actions.length === 0 &&
    reading.effect.kind === 'none' &&
    !reading.violations.some((v) => v.kind === 'format')
  );
}

function rosterOf(game: ArchiveGame): Roster {
  return game.slots.map((names) => ({ name: names[0]!, aliases: [], formerNames: names.slice(1), alive: true }));
}

function audit(only: string | undefined, list: boolean): void {
  const games = readArchive(fromMirror('data/archive.txt')).filter((g) => (only ? g.id === only : true));
  const totals = { posts: 0, tag: 0, bold: 0, silentTag: 0, silentBold: 0 };
  for (const game of games) {
    const posts = postsOf(game);
    if (!posts) continue;
    const roster = rosterOf(game);
    const hosts = new Set(game.moderators.map((m) => m.toLowerCase()));
    for (const p of posts) {
      if (hosts.has(p.user.toLowerCase())) continue;
      totals.posts++;
      const shape = voteShape(p.content, game.url);
      if (shape === null) continue;
      totals[shape]++;
      const reading = readPost({ body: parseFragment(p.content, markup, game.url), edit: null }, roster, ruleset);
      if (!isSilent(reading)) continue;
      totals[shape === 'tag' ? 'silentTag' : 'silentBold']++;
      if (list) {
        const lines = ownLines(parseFragment(p.content, markup, game.url)).map(lineText);
        const shown = lines.filter((l) => /vote/iu.test(l)).map((l) => l.slice(0, 160));
        console.log(`silent (${shape}): game ${game.id} #${p.number} ${p.user}: ${shown.join(' | ')}`);
      }
    }
  }
  console.log(`material: ${SOURCE}`);
  console.log(
    `posts read: ${totals.posts} (the moderators' left out); with an official vote tag: ${totals.tag}, with a bold "vote:" only: ${totals.bold}`,
  );
  console.log(
    `silent (no action, no review, no format violation): ${totals.silentTag} with a tag, ${totals.silentBold} with a bold "vote:" only`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const problem = mirrorProblem();
  if (problem) {
    console.error(problem);
    process.exit(2);
  }
  audit(args.includes('--game') ? args[args.indexOf('--game') + 1] : undefined, args.includes('--list'));
}
