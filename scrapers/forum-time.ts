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

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/**
 * Text dates as forums print them: "Sun May 26, 2019 4:34 pm", "Oct 30, 2014 at 10:48 PM",
 * "06-15-2016, 03:03 PM", "2016-02-01, 02:21", "August 07, 2025, 10:00:00 PM",
 * "Today at 5:17 AM", "Yesterday, 12:51 AM", "Posted December 21, 2016" (date only: 00:00).
 */
export function fromForumText(raw: string, opts: TextDateOptions): string | null {
  const s = raw.replace(/\s+/g, ' ').trim().toLowerCase();
  let y: number | undefined;
  let mo: number | undefined;
  let d: number | undefined;

  const rel = /\b(today|yesterday)\b/.exec(s);
  if (rel) {
    const local = wallParts(new Date(opts.now), opts.timeZone);
    const base = Date.UTC(local.y, local.mo - 1, local.d) - (rel[1] === 'yesterday' ? 86_400_000 : 0);
    const b = new Date(base);
    y = b.getUTCFullYear();
    mo = b.getUTCMonth() + 1;
    d = b.getUTCDate();
  }
  const named =
    /\b([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b/.exec(s) ??
    /\b(\d{1,2}) ([a-z]{3,9})\.?,? (\d{4})\b/.exec(s);
  if (y === undefined && named) {
    const [a, b] = /^\d/.test(named[1]!) ? [named[2]!, named[1]!] : [named[1]!, named[2]!];
    const month = MONTHS[a.slice(0, 4)] ?? MONTHS[a.slice(0, 3)];
    if (month) {
      mo = month;
      d = +b;
      y = +named[3]!;
    }
  }
  if (y === undefined) {
    const num = /\b(\d{1,4})[-/.](\d{1,2})[-/.](\d{2,4})\b/.exec(s);
    if (num) {
      const [p, q, r] = [+num[1]!, +num[2]!, +num[3]!];
      if (num[1]!.length === 4 || opts.dateOrder === 'ymd') {
        y = p;
        mo = q;
        d = r;
      } else if (opts.dateOrder === 'dmy') {
        d = p;
        mo = q;
        y = r;
      } else {
        mo = p;
        d = q;
        y = r;
      }
      if (y < 100) y += 2000;
    }
  }
  if (y === undefined || mo === undefined || d === undefined || mo < 1 || mo > 12 || d < 1 || d > 31) return null;

  let h = 0;
  let mi = 0;
  let sec = 0;
  const time = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?/.exec(s.replace(/\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b/, ''));
  if (time) {
    h = +time[1]!;
    mi = +time[2]!;
    sec = +(time[3] ?? 0);
    if (time[4] === 'pm' && h < 12) h += 12;
    if (time[4] === 'am' && h === 12) h = 0;
  }
  return wallTimeToUtc(y, mo, d, h, mi, sec, opts.timeZone);
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
