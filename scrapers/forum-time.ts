/**
 * Forum times to UTC. Engines that print a machine time (epoch or ISO) are read exactly;
 * those that print only text need the site's date order and time zone (a site profile),
 * since guests see the board's default zone and nothing in the markup says which it is.
 */
export interface TextDateOptions {
  /** IANA zone the board prints times in (guests see the board default). */
  timeZone: string;
  /** Order of numeric dates such as 06-07-2016. */
  dateOrder: 'mdy' | 'dmy' | 'ymd';
  /** When the page was fetched (ISO): "Today" and "Yesterday" are relative to it. */
  now: string;
}

export function fromEpochSeconds(s: string | number | null | undefined): string | null {
  const n = typeof s === 'string' ? Number(s) : s;
  return n !== null && n !== undefined && Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : null;
}

export function fromEpochMillis(ms: string | number | null | undefined): string | null {
  const n = typeof ms === 'string' ? Number(ms) : ms;
  return n !== null && n !== undefined && Number.isFinite(n) && n > 0 ? new Date(n).toISOString() : null;
}

/** ISO 8601 with or without offset ("+0200", "+02:00", "Z"); without one, `zone` applies. */
export function fromIso(value: string | null | undefined, zone = 'UTC'): string | null {
  if (!value) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value.trim(),
  );
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, off] = m;
  // Milliseconds are kept (Discourse's created_at has them); finer digits are dropped.
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  if (off) {
    const norm = off === 'Z' ? 'Z' : `${off.slice(0, 3)}:${off.slice(-2)}`;
    const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${norm}`);
    return Number.isNaN(t) ? null : new Date(t + ms).toISOString();
  }
  const wall = wallTimeToUtc(+y!, +mo!, +d!, +h!, +mi!, +(s ?? 0), zone);
  return wall === null || ms === 0 ? wall : new Date(Date.parse(wall) + ms).toISOString();
}

/**
 * The languages whose month names and "today / yesterday / N days ago" words are read, taken
 * from the runtime's own locale data (Intl), never from hand lists.
 */
const DATE_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;

const NOT_ASCII = /[^ -~]/;

/** Lower case, accents and dots off, typographic apostrophes plain: how page words are compared. */
function fold(s: string): string {
  // Plain ASCII (most dates) has no accents to take off: only case and the backtick.
  if (!NOT_ASCII.test(s)) return s.replace(/`/g, "'").toLowerCase();
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2019\u02bc`]/g, "'")
    .toLowerCase();
}

/** Every month name and abbreviation of DATE_LOCALES (standalone and "5 lipca" forms), folded. */
const MONTH_NAMES: ReadonlyMap<string, number> = (() => {
  const names = new Map<string, number>();
  const add = (name: string, month: number): void => {
    const key = fold(name).replace(/[.\s]+$/g, '');
    if (/^\p{L}{3,}$/u.test(key)) names.set(key, month);
  };
  for (const locale of DATE_LOCALES) {
    for (const style of ['long', 'short'] as const) {
      const alone = new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' });
      const withDay = new Intl.DateTimeFormat(locale, { day: 'numeric', month: style, timeZone: 'UTC' });
      for (let m = 1; m <= 12; m++) {
        const date = new Date(Date.UTC(2020, m - 1, 5));
        add(alone.format(date), m);
        for (const part of withDay.formatToParts(date)) if (part.type === 'month') add(part.value, m);
      }
    }
  }
  return names;
})();

/**
 * The month a word names: a full name or abbreviation in any of DATE_LOCALES, or a prefix of
 * at least three letters of names of one month only ("Juil", "Sept", "Dez."). Null otherwise.
 */
export function monthOf(word: string): number | null {
  const known = monthCache.get(word);
  if (known !== undefined) return known;
  const month = findMonth(word);
  if (monthCache.size > 4096) monthCache.clear();
  monthCache.set(word, month);
  return month;
}

/** Words seen before: a page repeats a handful ("Jan", "at", "Posted"). */
const monthCache = new Map<string, number | null>();

function findMonth(word: string): number | null {
  const w = fold(word).replace(/\.$/, '');
  if (w.length < 3) return null;
  const exact = MONTH_NAMES.get(w);
  if (exact) return exact;
  let found: number | null = null;
  for (const [name, month] of MONTH_NAMES) {
    if (!name.startsWith(w)) continue;
    if (found !== null && found !== month) return null;
    found = month;
  }
  return found;
}

const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "today"/"yesterday" words and "N weeks/days/hours/minutes ago" phrases of DATE_LOCALES, as folded patterns. */
type Ago = { re: RegExp; unitMs: number; months: number };
const RELATIVE: { days: Map<string, number>; dayWord: RegExp; ago: Ago[] } = (() => {
  const days = new Map<string, number>();
  const ago: Ago[] = [];
  // Months and years are calendar steps back ("6 months ago" on an old thread: all it shows).
  const units = {
    year: [0, 12],
    month: [0, 1],
    week: [604_800_000, 0],
    day: [86_400_000, 0],
    hour: [3_600_000, 0],
    minute: [60_000, 0],
    second: [1000, 0],
  } as const;
  const seen = new Set<string>();
  const add = (parts: Intl.RelativeTimeFormatPart[], unitMs: number, months: number, short: boolean): void => {
    const source = parts
      .map((p) => {
        if (p.type === 'integer') return '(\\d+)';
        const text = literal(fold(p.value)).replace(/\s+/g, '\\s*');
        // Short forms as boards write them too: "21 min. ago", "21 min ago", "21 mins ago".
        return short ? text.replace(/(\p{L}{3,})\\\./gu, '$1(?:\\.|s)?') : text;
      })
      .join('');
    if (seen.has(source)) return;
    seen.add(source);
    ago.push({ re: new RegExp(`(?:^|[^\\p{L}])${source}(?![\\p{L}])`, 'u'), unitMs, months });
  };
  for (const locale of DATE_LOCALES) {
    const words = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    days.set(fold(words.format(0, 'day')), 0);
    days.set(fold(words.format(-1, 'day')), 1);
    const numbers = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
    const short = new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'short' });
    for (const [unit, [unitMs, months]] of Object.entries(units)) {
      // Several counts: plural forms differ (Polish "2 dni", "5 dni"; "1 day" / "3 days").
      for (const n of [1, 2, 5, 22]) {
        add(numbers.formatToParts(-n, unit as keyof typeof units), unitMs, months, false);
        // Abbreviated units of three letters or more only ("min.", "Std."): "6 m" is no unit.
        const parts = short.formatToParts(-n, unit as keyof typeof units);
        if (parts.some((p) => p.type === 'literal' && /\p{L}{3,}\./u.test(p.value))) add(parts, unitMs, months, true);
      }
    }
  }
  const words = [...days.keys()].map(literal).join('|');
  return { days, dayWord: new RegExp(`(?:^|[^\\p{L}])(${words})(?![\\p{L}])`, 'u'), ago };
})();

/** "May 26, 2019", "Oct 30 2014" (groups 1-3) or "11. November 2019", "14 de marzo de 2020" (groups 4-6). */
const NAMED_DATE =
  /(?:^|[^\p{L}\d])(?:(\p{L}{3,})\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? (\d{4}))?(?!\d)|(\d{1,2})\.? (?:de )?(\p{L}{3,})\.?,?(?: (?:de )?(\d{4}))?(?![\p{L}\d]))/gu;

/**
 * Text dates as forums print them, in the languages of DATE_LOCALES: "Sun May 26, 2019 4:34 pm",
 * "Oct 30, 2014 at 10:48 PM", "06-15-2016, 03:03 PM", "2016-02-01, 02:21", "11. November
 * 2019 um 10:54 Uhr", "5 Juil 2018", "29/07/2004, 19h46", "14 de marzo de 2020", "Today at
 * 5:17 AM", "Gestern, 12:51", "il y a 3 jours", "Posted December 21, 2016" (date only: 00:00).
 * A date without a year is the latest such day not after `now`.
 */
export function fromForumText(raw: string, opts: TextDateOptions): string | null {
  const s = fold(raw.replace(/\s+/g, ' ').trim());
  if (s === '') return null;
  let y: number | undefined;
  let mo: number | undefined;
  let d: number | undefined;
  // The board's date now: only relative words and dates without a year need it (Intl is slow).
  let today: ReturnType<typeof wallParts> | undefined;
  const local = (): ReturnType<typeof wallParts> => (today ??= wallParts(new Date(opts.now), opts.timeZone));

  // "3 days ago" shows no year; a date that does is never relative (and skips the patterns).
  if (!/\d{4}/.test(s)) {
    for (const { re, unitMs, months } of RELATIVE.ago) {
      const m = re.exec(s);
      if (!m) continue;
      const back = new Date(Date.parse(opts.now) - Number(m[1]) * unitMs);
      if (months > 0) back.setUTCMonth(back.getUTCMonth() - Number(m[1]) * months);
      return back.toISOString();
    }
  }
  const day = RELATIVE.dayWord.exec(s);
  if (day) {
    const b = new Date(Date.UTC(local().y, local().mo - 1, local().d) - RELATIVE.days.get(day[1]!)! * 86_400_000);
    y = b.getUTCFullYear();
    mo = b.getUTCMonth() + 1;
    d = b.getUTCDate();
  }
  if (y === undefined) {
    // The first "word day [year]" or "day word [year]" whose word is a month ("alle 09:30" is
    // not), one showing its year before one without ("1 month ago 18 April 2020": Spanish
    // "ago" is August, but "18 April 2020" is the date).
    let yearless: RegExpMatchArray | null = null;
    let named: RegExpMatchArray | null = null;
    // Overlapping: "ago 18" must not hide "18 April 2020" (bounded: a start per character).
    const re = NAMED_DATE;
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      re.lastIndex = m.index + 1;
      const dayFirst = m[1] === undefined;
      if (!monthOf(dayFirst ? m[5]! : m[1]!)) continue;
      if (dayFirst ? m[6] : m[3]) {
        named = m;
        break;
      }
      yearless ??= m;
    }
    named ??= yearless;
    if (named) {
      const dayFirst = named[1] === undefined;
      mo = monthOf(dayFirst ? named[5]! : named[1]!)!;
      d = +(dayFirst ? named[4]! : named[2]!);
      const year = dayFirst ? named[6] : named[3];
      // No year shown: this year, or last year when that day is still to come.
      y = year ? +year : mo * 100 + d > local().mo * 100 + local().d ? local().y - 1 : local().y;
    }
  }
  if (y === undefined) {
    const num = /\b(\d{1,4})[-/.](\d{1,2})[-/.](\d{2,4})\b/.exec(s);
    if (num) {
      const [p, q, r] = [+num[1]!, +num[2]!, +num[3]!];
      // A day over 12 says the order whatever the board's setting.
      const order =
        num[1]!.length === 4 ? 'ymd' : p > 12 && q <= 12 ? 'dmy' : q > 12 && p <= 12 ? 'mdy' : opts.dateOrder;
      if (order === 'ymd') [y, mo, d] = [p, q, r];
      else if (order === 'dmy') [d, mo, y] = [p, q, r];
      else [mo, d, y] = [p, q, r];
      if (y < 100) y += 2000;
    }
  }
  if (y === undefined || mo === undefined || d === undefined || mo < 1 || mo > 12 || d < 1 || d > 31) return null;

  let h = 0;
  let mi = 0;
  let sec = 0;
  // "10:48 PM", "um 10:54 Uhr", "19h46".
  const time = /(?:^|[^\d])(\d{1,2})(?::(\d{2})(?::(\d{2}))?|h(\d{2}))(?!\d)\s*(am|pm|a\.m\.|p\.m\.)?/.exec(
    s.replace(/\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b/, ''),
  );
  if (time) {
    h = +time[1]!;
    mi = +(time[2] ?? time[4]!);
    sec = +(time[3] ?? 0);
    const half = time[5]?.[0];
    if (half === 'p' && h < 12) h += 12;
    if (half === 'a' && h === 12) h = 0;
  }
  if (h > 23 || mi > 59 || sec > 59) return null;
  return wallTimeToUtc(y, mo, d, h, mi, sec, opts.timeZone);
}

/**
 * The order a page writes numeric dates in, learned from the page before the site
 * profile's setting: a date on it whose day is over 12 ("29/07/2004" is day first), dotted
 * dates ("08.11.2009": day first wherever they are written), then the order of the page's
 * `<html lang>` (from Intl), then `fallback`.
 */
export function pageDateOrder(html: string, fallback: TextDateOptions['dateOrder']): TextDateOptions['dateOrder'] {
  let dmy = 0;
  let mdy = 0;
  // Not preceded by a digit or a dot either: tested by hand, as a lookbehind at the start
  // of the pattern makes the engine try it at every character of the page.
  const re = /(\d{1,2})([./-])(\d{1,2})\2(\d{2}|\d{4})(?![\d.])/g;
  for (let m = re.exec(html), n = 0; m && n < 500; m = re.exec(html)) {
    const before = m.index > 0 ? html.charCodeAt(m.index - 1) : 0;
    if ((before >= 48 && before <= 57) || before === 46) {
      re.lastIndex = m.index + 1;
      continue;
    }
    n++;
    const [a, b] = [+m[1]!, +m[3]!];
    if (a > 31 || b > 31 || (a > 12 && b > 12)) continue;
    if (a > 12) dmy++;
    else if (b > 12) mdy++;
    // Zero-padded on both sides, so a version number ("1.8.30") is no date.
    else if (m[2] === '.' && m[1]!.length === 2 && m[3]!.length === 2) dmy++;
  }
  if (dmy !== mdy) return dmy > mdy ? 'dmy' : 'mdy';
  const lang = /<html\b[^>]*?\blang\s*=\s*["']?([a-zA-Z]{2,3}(?:-[a-zA-Z0-9]+)*)/i.exec(html.slice(0, 4096))?.[1];
  // A bare language tells only where its regions agree (Intl's "-001", the world variant):
  // "de" is day first everywhere, "en" is not (en-US against en-GB), so the profile decides.
  const order = lang ? (langOrder(lang) ?? null) : null;
  if (order && (lang!.includes('-') || langOrder(`${lang}-001`) === order)) return order;
  return fallback;
}

/** The UTC instant at which the clocks of `zone` show this wall time. */
export function wallTimeToUtc(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  zone: string,
): string | null {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(guess)) return null;
  // Two passes settle the offset, DST transitions included.
  let t = guess - offsetMs(guess, zone);
  t = guess - offsetMs(t, zone);
  return new Date(t).toISOString();
}

/** Zone offsets by zone and quarter hour: Intl is slow and a page repeats a few hours. */
const offsets = new Map<string, number>();

function offsetMs(t: number, zone: string): number {
  if (zone === 'UTC' || zone === 'Etc/UTC') return 0;
  const key = `${zone}@${Math.floor(t / 900_000)}`;
  let off = offsets.get(key);
  if (off === undefined) {
    const p = wallParts(new Date(t), zone);
    off = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(t / 1000) * 1000;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(key, off);
  }
  return off;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallParts(date: Date, zone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  const parts: Record<string, number> = {};
  for (const part of f.formatToParts(date)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return { y: parts.year!, mo: parts.month!, d: parts.day!, h: parts.hour! % 24, mi: parts.minute!, s: parts.second! };
}

const langOrders = new Map<string, TextDateOptions['dateOrder'] | null>();

/** The order Intl writes numeric dates in for a language tag; null for a tag it does not know. */
function langOrder(tag: string): TextDateOptions['dateOrder'] | null {
  // A formatter per page costs more than reading the page's dates: once per tag.
  let order = langOrders.get(tag);
  if (order === undefined) {
    order = intlOrder(tag);
    if (langOrders.size > 1000) langOrders.clear();
    langOrders.set(tag, order);
  }
  return order;
}

function intlOrder(tag: string): TextDateOptions['dateOrder'] | null {
  try {
    const types = new Intl.DateTimeFormat(tag).formatToParts(new Date(Date.UTC(2020, 6, 25))).map((p) => p.type);
    const [day, month, year] = [types.indexOf('day'), types.indexOf('month'), types.indexOf('year')];
    if (year < month && month < day) return 'ymd';
    return day < month ? 'dmy' : 'mdy';
  } catch {
    return null;
  }
}

/**
 * The page context with the date order the page itself shows (pageDateOrder), the site
 * profile's as the fallback: what an adapter reading text dates reads them with.
 */
export function withPageDateOrder<C extends { profile: { dateOrder: TextDateOptions['dateOrder'] } }>(
  html: string,
  ctx: C,
): C {
  const dateOrder = pageDateOrder(html, ctx.profile.dateOrder);
  return dateOrder === ctx.profile.dateOrder ? ctx : { ...ctx, profile: { ...ctx.profile, dateOrder } };
}
