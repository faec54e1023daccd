import { writeFileSync } from 'node:fs';
import type { EngineAdapter, ThreadPage, ThreadRef } from '../../scrapers/adapter.js';
import { readGenerically } from '../../scrapers/generic-profile.js';
import { adapterOf, type Recognition, recogniseHtml, recogniseUrl } from '../../scrapers/identify.js';
import { FetchError, LayoutError } from '../fetch/errors.js';
import type { FetchedPage } from '../fetch/fetched-page.js';
import { assertPublicUrl } from '../fetch/private-host.js';
import { redactUrl } from '../fetch/redact-url.js';
import type { Body, BodyNode } from '../model/body.js';
import type { EngineId } from '../model/engine.js';
import type { EditMarker } from '../model/post.js';
import { CookieFileError } from '../site/cookie-file.js';
import { SiteProfileError } from '../site/load-site-profiles.js';
import { openSiteReading, type SiteReading } from '../site/site-reading.js';
import { identifyEngine } from '../thread/identify-engine.js';
import { type PageSource, readPage } from '../thread/read-page.js';
import { parseEngine } from './count-command.js';
import { CliError, EXIT } from './exit-codes.js';
import { forumFailure } from './forum-failure.js';
import type { ProgressLine } from './progress.js';

export interface ReadOptions {
  /** Page N of the thread the URL points into, instead of the page the URL names. */
  page?: number;
  /** The engine, when the URL and page do not tell (`--engine`). */
  engine?: string;
  /** Read with the generic reader and show the site profile it would store (`--generic`). */
  generic?: boolean;
  /** With `--generic`: write the site profile the reading found to this file (`--write-profile`), never over one. */
  writeProfile?: string;
  format: 'text' | 'json';
  siteProfile?: string[];
  cookies?: string;
  browser?: boolean;
  /** Progress on stderr (each page asked for, retries); absent with `--quiet`. */
  progress?: ProgressLine | undefined;
}

/** How the engine was recognised: `option` is `--engine`; the rest come from scrapers/identify.ts. */
export type ReadRecognition = { by: 'option'; detail: string } | Omit<Recognition, 'engine'>;

/** One post as `votal read` shows it. */
export interface ReadPost {
  number: number;
  id: string;
  author: string;
  authorId: string | null;
  /** UTC ISO 8601; null where the page shows no time that could be read. */
  postedAt: string | null;
  permalink: string;
  edit: EditMarker | null;
  /** The body as text, quotes (and spoilers, code, bold, strikes) marked as `[quote=X]…[/quote]`. */
  text: string;
  /** The engine-neutral body tree (src/model/body.ts), as the vote parser reads it. */
  body: Body;
}

/**
 * What `votal read --format json` prints: the JSON contract of `votal read` (docs and
 * src/cli/README.md). Extend, never rename.
 */
export interface PageReport {
  /** The URL given. */
  url: string;
  /** The page read (after redirects). */
  pageUrl: string;
  engine: EngineId;
  recognisedBy: ReadRecognition;
  /** Which reader read the posts: the engine's adapter, or the generic reader (`--generic`). */
  reader: 'adapter' | 'generic';
  /**
   * The generic reader's finding (`reader: 'generic'` only): the site profile it would store
   * as `sites/<host>.yaml`, and the GM's one check before a game is polled.
   */
  generic?: { profileYaml: string; confirm: string };
  title: string | null;
  page: number;
  pageCount: number;
  /** Posts per page when the page shows it; null when it cannot (a last or only page). */
  postsPerPage: number | null;
  /** The next page's URL; null on the last page. */
  next: string | null;
  posts: ReadPost[];
  /** What the GM or a contributor must know: posts without a time or author, a page other than the one asked. */
  warnings: string[];
}

export interface ReadResult {
  report: PageReport;
  output: string;
  /** For stderr: notes from reading the site (a browser that would not start, cookie files). */
  notes: string[];
}

/**
 * `votal read`: what Votal reads from one page, through the same fetch path as `votal count`
 * (private hosts refused, the site's profile, pause, cookies and browser fallback). The page
 * is always asked for afresh: it is what a GM runs when a count looks wrong.
 */
export async function runRead(url: string, opts: ReadOptions, source?: PageSource): Promise<ReadResult> {
  if (opts.generic && opts.engine !== undefined && opts.engine !== 'generic') {
    throw new CliError(`--generic reads with the generic reader; drop --engine ${opts.engine}, or drop --generic`);
  }
  const forced = opts.generic ? 'generic' : parseEngine(opts.engine);
  if (opts.writeProfile !== undefined && forced !== 'generic') {
    throw new CliError('--write-profile writes what the generic reader found: add --generic');
  }
  if (opts.page !== undefined && (!Number.isInteger(opts.page) || opts.page < 1)) {
    throw new CliError(`--page takes a page number from 1: ${opts.page}`);
  }
  let start: URL;
  try {
    start = new URL(url);
  } catch {
    throw new CliError(`not a URL: ${url}`);
  }
  const notes: string[] = [];
  try {
    await assertPublicUrl(start.href);
    const site = await openSiteReading({
      threadUrl: start.href,
      ...(opts.siteProfile?.length ? { profileFiles: opts.siteProfile } : {}),
      ...(opts.cookies ? { cookiesFile: opts.cookies } : {}),
      ...(opts.browser ? { browser: true } : {}),
      ...(source ? { source } : {}),
      ...(opts.progress ? { fetcher: { onRetry: (info) => opts.progress?.retry(info) } } : {}),
    });
    try {
      const report = await readOnePage(start, opts, forced, site);
      if (opts.writeProfile !== undefined && report.generic) {
        writeProfileFile(opts.writeProfile, report.generic.profileYaml);
        notes.push(
          `wrote the site profile to ${opts.writeProfile}: check its time zone and date order, then read the thread with --site-profile ${opts.writeProfile}`,
        );
      }
      return {
        report,
        output: opts.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : asText(report),
        notes,
      };
    } finally {
      notes.push(...site.notes);
      await site.close();
    }
  } catch (e) {
    const told = notes.length ? `${(e as Error).message}\n${notes.map((n) => `note: ${n}`).join('\n')}` : null;
    if (e instanceof FetchError) throw forumFailure(e, told ?? e.message, forced, start.href);
    if (e instanceof SiteProfileError || e instanceof CookieFileError)
      throw new CliError(told ?? e.message, EXIT.input);
    throw e;
  }
}

/**
 * Recognise the engine, pick the page, read it with the engine's adapter; with `--generic`
 * (or `--engine generic`) the generic reader reads it, recognises nothing, and the report
 * carries the site profile it would store.
 */
async function readOnePage(
  start: URL,
  opts: ReadOptions,
  forced: EngineId | undefined,
  site: SiteReading,
): Promise<PageReport> {
  const { engine, recognisedBy, identified } = await recognise(start, opts, forced, site);
  const adapter = adapterOf(engine);
  const thread = adapter.threadRef(start);
  const warnings: string[] = [];
  const reading = { source: site.source, adapter, profile: site.profile, renderer: site.renderer };
  const read = async (url: string): Promise<{ doc: FetchedPage; page: ThreadPage }> => {
    const prefetched = identified && (identified.url === url || identified.finalUrl === url) ? identified : null;
    if (!prefetched) opts.progress?.fetching(redactUrl(url));
    const outcome = await readPage({ ...reading, onNote: (n) => site.notes.push(n) }, url, {}, prefetched);
    if (outcome.kind !== 'read') throw new Error(`a page asked for without validators came back unchanged: ${url}`);
    return outcome;
  };

  let outcome: { doc: FetchedPage; page: ThreadPage };
  if (opts.page === undefined) outcome = await readNamedPage(start, thread, adapter, read, site);
  else {
    // Page URLs that depend on the page size (phpBB's and SMF's start offsets) are built
    // from the size the page in hand shows: that page is read first.
    const dependsOnSize = adapter.pageUrl(thread, 3, 1) !== adapter.pageUrl(thread, 3, 2);
    const first = dependsOnSize ? await readNamedPage(start, thread, adapter, read, site) : null;
    outcome =
      first && first.page.page === opts.page
        ? first
        : await read(adapter.pageUrl(thread, opts.page, first?.page.postsPerPage ?? null));
  }
  const page = outcome.page;
  if (opts.page !== undefined && page.page !== opts.page) {
    warnings.push(`asked for page ${opts.page}, the forum answered page ${page.page} (${outcome.doc.finalUrl})`);
  }
  warnings.push(...postWarnings(page));
  const generic =
    engine === 'generic'
      ? readGenerically(outcome.doc.body, {
          url: outcome.doc.finalUrl,
          profile: site.profile,
          now: outcome.doc.fetchedAt,
        })
      : null;
  return {
    url: start.href,
    pageUrl: outcome.doc.finalUrl,
    engine,
    recognisedBy,
    reader: generic ? 'generic' : 'adapter',
    ...(generic ? { generic: { profileYaml: generic.yaml, confirm: generic.confirm.message } } : {}),
    title: page.title,
    page: page.page,
    pageCount: page.pageCount,
    postsPerPage: page.postsPerPage,
    next: page.page < page.pageCount ? adapter.pageUrl(thread, page.page + 1, page.postsPerPage) : null,
    posts: page.posts.map(postReport),
    warnings,
  };
}

/**
 * The engine and what recognised it: `--engine`, else the URL (with the site profile),
 * else the page itself (fetched once, and kept: it is the page read when it is the one asked for).
 */
async function recognise(
  start: URL,
  opts: ReadOptions,
  forced: EngineId | undefined,
  site: SiteReading,
): Promise<{ engine: EngineId; recognisedBy: ReadRecognition; identified: FetchedPage | null }> {
  if (forced) return { engine: forced, recognisedBy: { by: 'option', detail: '--engine' }, identified: null };
  const byUrl = recogniseUrl(start, site.profile);
  if (byUrl) {
    const { engine, ...recognisedBy } = byUrl;
    return { engine, recognisedBy, identified: null };
  }
  // A board on its own domain: the page says (a login wall or script shell is told as such).
  opts.progress?.fetching(redactUrl(start));
  const found = await identifyEngine(start, site.source, site.renderer);
  const why = recogniseHtml(found.page.body);
  const recognisedBy: ReadRecognition = why
    ? { by: why.by, detail: why.detail }
    : { by: 'fingerprint', detail: '(rendered page)' };
  return { engine: found.engine, recognisedBy, identified: found.page };
}

/** One post as `votal read` reports it: its head, its text with the marks a vote reader sees, its body. */
function postReport(p: ThreadPage['posts'][number]): PageReport['posts'][number] {
  return {
    number: p.number,
    id: p.id,
    author: p.author,
    authorId: p.authorId,
    postedAt: p.postedAt,
    permalink: p.permalink,
    edit: p.edit,
    text: markedText(p.body),
    body: p.body,
  };
}

/**
 * The page the URL names, as the forum serves it (a post's link redirects to its page).
 * An engine read through its own documents (Discourse's topic JSON) has no posts on the
 * HTML page a user pastes: then the engine's document for that page is read instead, and
 * a note says so.
 */
async function readNamedPage(
  start: URL,
  thread: ThreadRef,
  adapter: EngineAdapter,
  read: (url: string) => Promise<{ doc: FetchedPage; page: ThreadPage }>,
  site: SiteReading,
): Promise<{ doc: FetchedPage; page: ThreadPage }> {
  try {
    return await read(start.href);
  } catch (error) {
    const own = adapter.pageUrl(thread, adapter.pageOf(start, null), null);
    if (!(error instanceof LayoutError) || own === start.href) throw error;
    site.notes.push(`${start.href} holds no posts Votal reads; read the engine's own page ${own} instead`);
    return read(own);
  }
}

/** A site profile file, written once: an existing file (a profile someone keeps) is never replaced. */
function writeProfileFile(file: string, yaml: string): void {
  try {
    writeFileSync(file, yaml, { flag: 'wx', mode: 0o644 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'EEXIST'
        ? `--write-profile: ${file} exists; Votal does not write over a site profile: remove it or name another file`
        : `--write-profile: cannot write ${file}: ${(error as Error).message}`,
      EXIT.input,
    );
  }
}

/** Never silent: a post without a time turns off every clock rule for it; one without an author cannot vote. */
function postWarnings(page: ThreadPage): string[] {
  const out: string[] = [];
  for (const p of page.posts) {
    const which = `post #${p.number} (id ${p.id})`;
    if (p.postedAt === null) {
      out.push(
        `${which}: no time could be read from the page; clock rules (deadline, Hammer checks, votes after the end) cannot apply to it`,
      );
    }
    if (!p.author.trim()) out.push(`${which}: no author could be read from the page`);
  }
  return out;
}

/** A body as text: quotes, spoilers and code marked as they hide votes, bold and strikes as they make them. */
function markedText(body: readonly BodyNode[]): string {
  const walk = (nodes: readonly BodyNode[]): string => nodes.map(node).join('');
  const node = (n: BodyNode): string => {
    switch (n.t) {
      case 'text':
        return n.text;
      case 'br':
        return '\n';
      case 'block':
        return `\n${walk(n.children)}\n`;
      case 'bold':
        return `[b]${walk(n.children)}[/b]`;
      case 'strike':
        return `[s]${walk(n.children)}[/s]`;
      case 'quote':
        return `\n[quote${n.author === null ? '' : `=${n.author}`}]\n${walk(n.children).trim()}\n[/quote]\n`;
      case 'spoiler':
        return `[spoiler${n.title === null ? '' : `=${n.title}`}]${walk(n.children)}[/spoiler]`;
      case 'code':
        return `[code]${n.text.trim()}[/code]`;
      case 'image':
        return `[image ${n.src}]`;
      case 'smilie':
        return n.alt;
      case 'link':
        return n.kind === 'mention' ? `[mention]${walk(n.children)}[/mention]` : walk(n.children);
      case 'signature':
        return '';
      case 'unreadable':
        return `[unreadable: ${n.reason}]`;
      default:
        return walk(n.children);
    }
  };
  return walk(body)
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function asText(r: PageReport): string {
  const how =
    r.recognisedBy.by === 'option' ? 'named with --engine' : `by ${r.recognisedBy.by} ${r.recognisedBy.detail}`;
  const size = r.postsPerPage === null ? '' : ` (${r.postsPerPage} posts a page)`;
  const lines = [
    `Page:   ${r.pageUrl}`,
    r.reader === 'generic'
      ? `Engine: generic (${how}; read by the generic reader, not an engine's adapter)`
      : `Engine: ${r.engine} (recognised ${how}; read by its adapter)`,
    `Title:  ${r.title ?? '(none shown)'}`,
    `Pages:  page ${r.page} of ${r.pageCount}${size}${r.next ? `; next: ${r.next}` : '; the last page'}`,
    `Posts:  ${r.posts.length}`,
    '',
  ];
  for (const p of r.posts) {
    lines.push(`#${p.number} ${p.author || '(no author)'} · ${p.postedAt ?? '(no time)'} · ${p.permalink}`);
    if (p.edit) lines.push(`  edited: ${p.edit.text}${p.edit.at ? ` (${p.edit.at})` : ''}`);
    for (const line of p.text.split('\n')) lines.push(`  ${line}`);
    lines.push('');
  }
  if (r.warnings.length > 0) {
    lines.push(`Warnings (${r.warnings.length}):`);
    for (const w of r.warnings) lines.push(`- ${w}`);
  } else lines.push('Warnings: none');
  if (r.generic) {
    lines.push('', r.generic.confirm, '', 'The site profile this reading would store (sites/<host>.yaml):', '');
    lines.push(r.generic.profileYaml.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
