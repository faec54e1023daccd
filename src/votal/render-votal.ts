import { deadNow, livingNow, type Tally, type Voter, type Wagon } from '../model/tally.js';
import { Dialect, dialectSpec, type DialectSpec } from './dialect.js';
import { bold, colour, italic, joined, link, writeInline, writeList, type Inline } from './markup.js';
import { compileTemplate, fillTemplate, type CompiledTemplate, type VotalPart, type WagonPart } from './template.js';
import { outcomeLine } from './votal-lines.js';

export interface VotalOptions {
  dialect: Dialect;
  /** Replaces the header's words ("Vote count — Day N"); written as text, escaped like a name. */
  title?: string;
  /** When the Day ends (ISO 8601); null or absent: no deadline line. */
  deadline?: string | null;
  /** IANA zone the deadline is shown in (the game's); default UTC. */
  timeZone?: string;
  /** BCP 47 locale of the deadline's date; default en-US. */
  locale?: string;
  /** A votal template (see template.ts); default DEFAULT_VOTAL_TEMPLATE. */
  template?: string;
  /**
   * Review items the GM accepted without a correction, as the review queue keys them
   * (`flag:<post>:<kind>`): settled, so not "left for the GM to check".
   */
  settled?: readonly string[];
  /**
   * Who reads it: `gm` (the default: the draft the GM approves) is told how many votes wait
   * for the GM's check; `players` (text posted as it is, `votal count --format bbcode`) is not.
   */
  audience?: 'gm' | 'players';
}

/** The official layout: what every game gets unless its GM sets a template. */
const DEFAULT_VOTAL_TEMPLATE = `{{header}}
{{asOf}}

{{wagons}}

{{notVoting}}
{{abstaining}}
{{alive}}
{{dead}}

{{threshold}}
{{penalties}}
{{deadline}}
{{notes}}
{{violations}}

{{outcome}}
{{explain}}
`;

let defaultTemplate: CompiledTemplate | null = null;

/**
 * The votal post for the GM to approve: header, wagons in the tally's order (each voter
 * linked to the post of the vote), No Lynch / Sleep under its ruleset name, who is not
 * voting, what it takes to eliminate, penalty votes, the deadline in the game's zone, how
 * many violations wait for the GM, and the outcome. Pure: the same tally and options give
 * the same post. Every name and snippet from the forum is escaped for the dialect.
 * Throws TemplateError for a bad template, RangeError for a bad deadline or time zone.
 */
export function renderVotal(t: Tally, opts: VotalOptions): string {
  const d = dialectSpec(Dialect.parse(opts.dialect));
  const template =
    opts.template === undefined
      ? (defaultTemplate ??= compileTemplate(DEFAULT_VOTAL_TEMPLATE))
      : compileTemplate(opts.template);
  const w = (nodes: readonly Inline[]) => writeInline(d, nodes);

  const parts: Record<VotalPart, string> = {
    header: w([bold(opts.title ?? `Vote count — Day ${t.day}`)]),
    title: opts.title === undefined ? '' : w([opts.title]),
    day: w([String(t.day)]),
    asOf: t.asOfPost === null ? '' : w([italic(`As of post ${t.asOfPost}.`)]),
    wagons: t.wagons.length
      ? writeList(
          d,
          t.wagons.map((x) => wagonLine(t, x)),
        )
      : w(['No votes yet.']),
    notVoting: w([bold(`Not voting (${t.notVoting.length}):`), ' ', ...names(t.notVoting)]),
    abstaining: t.abstaining?.length
      ? w([bold(`Abstaining (${t.abstaining.length}):`), ' ', ...names(t.abstaining)])
      : '',
    // Once someone has died, players are told who is still in and who is out: the living list
    // of every surface (`livingNow`), so a Night kill is never both alive and dead.
    alive: t.dead?.length ? w([bold(`Alive (${livingNow(t).length}):`), ' ', ...names(livingNow(t))]) : '',
    dead: t.dead?.length ? w([bold(`Dead (${deadNow(t).length}):`), ' ', ...names(deadNow(t))]) : '',
    threshold: w([thresholdSentence(t)]),
    penalties: penaltiesPart(d, t),
    deadline: opts.deadline
      ? w([bold('Deadline:'), ' ', formatDeadline(opts.deadline, opts.timeZone, opts.locale)])
      : '',
    notes: (t.notes ?? []).map((n) => w([n])).join('\n'),
    violations: w([violationsSentence(t, opts.settled, opts.audience ?? 'gm')]),
    outcome: w(t.outcome.status === 'open' ? [outcomeSentence(t)] : [bold(outcomeSentence(t))]),
    explain: explainPart(d, t),
  };
  const wagons = t.wagons.map(
    (x): Record<WagonPart, string> => ({
      target: w([x.target]),
      count: w([wagonCount(x)]),
      status: w(wagonStatus(t, x)),
      voters: w(votersOf(x)),
      line: w(wagonLine(t, x)),
    }),
  );
  return fillTemplate(template, { parts, wagons });
}

/** With `--explain`: the posts and events behind each wagon and the outcome (empty without). */
function explainPart(d: DialectSpec, t: Tally): string {
  const why = (list: readonly { post: number | null; text: string }[]) =>
    joined(
      list.map((e) => [e.post === null ? e.text : `#${e.post}: ${e.text}`]),
      '; ',
    );
  const items: Inline[][] = [
    ...t.wagons.filter((x) => x.explain?.length).map((x): Inline[] => [bold(x.target), ': ', ...why(x.explain!)]),
    ...(t.outcome.explain?.length ? [[bold('Outcome'), ': ', ...why(t.outcome.explain)] as Inline[]] : []),
  ];
  return items.length ? `${writeInline(d, [bold('Why these numbers:')])}\n${writeList(d, items)}` : '';
}

function names(list: readonly string[]): Inline[] {
  return list.length ? joined(list.map((n) => [n])) : ['—'];
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/** "3", "3+1" with penalty votes, "3+1, 1 vetoed" when vetoes cancel some. */
function wagonCount(x: Wagon): string {
  const penalty = x.penalty ? `+${num(x.penalty)}` : '';
  const cancelled = x.cancelled ? `, ${num(x.cancelled)} vetoed` : '';
  return `${num(x.votes)}${penalty}${cancelled}`;
}

/** "L-2", "L-1" (in red where the dialect has colours), "majority reached"; nothing without a threshold. */
function wagonStatus(t: Tally, x: Wagon): Inline[] {
  if (x.toThreshold === null) return [];
  if (x.toThreshold <= 0)
    return [colour('red', bold(t.threshold.kind === 'majority' ? 'majority reached' : 'threshold reached'))];
  const l = `L-${num(x.toThreshold)}`;
  return [x.toThreshold === 1 ? colour('red', l) : l];
}

function voterOf(v: Voter): Inline[] {
  const weight = v.weight !== 1 ? [` (×${num(v.weight)})`] : [];
  return v.permalink ? [link(v.permalink, v.player), ...weight] : [`${v.player} (#${v.post})`, ...weight];
}

function votersOf(x: Wagon): Inline[] {
  return x.voters.length ? joined(x.voters.map(voterOf)) : ['penalty votes only'];
}

/** `Target (votes[+penalty]) — L-k: voter, voter` */
function wagonLine(t: Tally, x: Wagon): Inline[] {
  const status = wagonStatus(t, x);
  return [bold(x.target), ` (${wagonCount(x)})`, ...(status.length ? [' — ', ...status] : []), ': ', ...votersOf(x)];
}

function thresholdSentence(t: Tally): string {
  const alive = `With ${t.living} alive`;
  return t.threshold.votes === null
    ? `${alive}, the most votes at the deadline decide.`
    : `${alive}, it takes ${t.threshold.votes} to eliminate.`;
}

function penaltiesPart(d: DialectSpec, t: Tally): string {
  const standing = (t.penalties ?? []).filter((p) => p.count > 0);
  if (!standing.length) return '';
  const list = joined(standing.map((p) => [`${p.player} ${p.count}`]));
  return writeInline(d, [bold('Penalty votes:'), ' ', ...list]);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The flags still waiting for the GM: a `gm-correction` flag records a review the GM has
 * settled, and `settled` names the ones the GM accepted as they are (players read this
 * line, so it counts only what is open).
 */
export function openFlags(t: Tally, settled: readonly string[] = []): Tally['flags'] {
  const done = new Set(settled);
  return t.flags.filter(
    (f) =>
      f.kind !== 'gm-correction' && !done.has(reviewKey(f)) && !(TARGET_FLAGS.has(f.kind) && laterVote(f, t) !== null),
  );
}

/** Flags about whom a vote names: the GM picks who was meant, or ignores the vote. */
export const TARGET_FLAGS: ReadonlySet<Tally['flags'][number]['kind']> = new Set([
  'ambiguous-target',
  'unknown-target',
  'vote-for-dead',
  'malformed-vote',
  'empty-vote',
  'no-lynch-not-allowed',
  'self-vote',
  'unreadable-post',
]);

/**
 * The post of the flagged player's vote that stands now, when it came after the flagged
 * post: the unreadable vote no longer matters to the count (the GM may still look at it).
 */
export function laterVote(f: Tally['flags'][number], t: Tally): number | null {
  if (f.player === null) return null;
  for (const w of t.wagons) {
    for (const v of w.voters) if (v.player === f.player && v.post > f.post) return v.post;
  }
  return null;
}

/** The key the GM's review queue gives a flag (src/game/review-queue.ts). */
function reviewKey(f: Tally['flags'][number]): string {
  return `flag:${f.post}:${f.kind}`;
}

/** "3 rule violations flagged for the GM; 1 vote left for the GM to check." — or nothing. */
function violationsSentence(t: Tally, settled: readonly string[] | undefined, audience: 'gm' | 'players'): string {
  const parts: string[] = [];
  // The GM's queue is the GM's business: players are not told what waits in it.
  const open = audience === 'gm' ? openFlags(t, settled).length : 0;
  if (t.violations.length)
    parts.push(`${plural(t.violations.length, 'rule violation', 'rule violations')} flagged for the GM`);
  if (open) parts.push(`${plural(open, 'vote', 'votes')} left for the GM to check`);
  return parts.length ? `${parts.join('; ')}.` : '';
}

function outcomeSentence(t: Tally): string {
  const line = outcomeLine(t);
  const draw = t.outcome.draw;
  return draw ? `${line} The tie was settled by a random draw: ${draw.picked}.` : line;
}

/**
 * The deadline in the game's zone, e.g. "Fri, Mar 13, 2026, 21:00 EDT". Intl does the
 * zone arithmetic (daylight saving included); no clock is read.
 */
export function formatDeadline(iso: string, timeZone = 'UTC', locale = 'en-US'): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) throw new RangeError(`votal: deadline "${iso}" is not an ISO 8601 date and time`);
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
  } catch (e) {
    throw new RangeError(
      `votal: cannot show the deadline in time zone "${timeZone}" (locale "${locale}"): ${(e as Error).message}`,
    );
  }
  const zone = zoneName(at, timeZone, locale);
  return format
    .formatToParts(at)
    .map((p) => (p.type === 'timeZoneName' ? zone : p.value))
    .join('');
}

/**
 * The zone's short name as people write it: "CET", "EDT", "BST". Intl's short names depend
 * on the locale (en-US knows only American zones and writes "GMT+1" for Berlin), so the
 * locale's own name is taken when it is a real name, else en-US's, else en-GB's, else the
 * offset ("GMT+9": Tokyo has no short name in either).
 */
export function zoneName(at: number, timeZone: string, locale = 'en-US'): string {
  let offset = '';
  for (const l of [locale, 'en-US', 'en-GB']) {
    const name = new Intl.DateTimeFormat(l, { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (!name) continue;
    if (!/^(GMT|UTC)[+\-\u2212]/.test(name)) return name;
    offset ||= name;
  }
  return offset;
}
