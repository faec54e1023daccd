import { z } from 'zod';
import { DialectSpec } from '../src/model/dialect.js';
import { EngineId } from '../src/model/engine.js';
import type { Post } from '../src/model/post.js';
import { BrowserFacts, FormFacts } from '../src/model/reply-form.js';
import { BodyMarkup } from './markup.js';
import { PageRegion } from './page-scan.js';
import type { SiteProfile } from './site-profile.js';

/**
 * Everything Votal knows about an engine, as typed data: how to recognise it, how its
 * pages are laid out, how to write a votal for it and how to post one. Read by
 * identification, the page scan, the votal renderer (src/votal/dialect.ts) and the form
 * publisher (src/publish/form-facts.ts), all through the registry.
 */
export const EngineDescriptor = z
  .strictObject({
    engine: EngineId,
    name: z.string(),
    /** The markup a votal is written in on this engine, and what it supports. */
    dialect: DialectSpec,
    /** How Votal posts a votal through the reply form; absent: the GM copies it (or an API posts it). */
    replyForm: FormFacts.optional(),
    /** How a browser fills that form when the page needs JavaScript; only with `replyForm`. */
    browserReply: BrowserFacts.optional(),
    /** Host name patterns of hosted forums (regular expressions on the host). */
    hosts: z.array(z.string()).default([]),
    /** Path patterns of this engine's thread URLs (regular expressions on path + query). */
    threadPaths: z.array(z.string()).default([]),
    /** CSS selectors any of which identifies the engine on a page (a board on its own domain). */
    fingerprints: z.array(z.string()).default([]),
    /** Pattern on `<meta name="generator">`. */
    generator: z.string().optional(),
    postsPerPage: z.number().int().positive(),
    /**
     * The parts of an HTML page the adapter reads (compound selectors): the page scan builds
     * a DOM of these alone, and of a post container only the parts named (DESIGN.md, page
     * scan). Absent: the whole page is parsed.
     */
    regions: z.array(PageRegion).optional(),
    body: BodyMarkup,
  })
  .refine((d) => !d.browserReply || d.replyForm, {
    message: 'browserReply needs the replyForm it fills',
    path: ['browserReply'],
  });
export type EngineDescriptor = z.infer<typeof EngineDescriptor>;
export type EngineDescriptorInput = z.input<typeof EngineDescriptor>;

/** A thread as the reader knows it: where page 1 is, and the page the user pointed at. */
export interface ThreadRef {
  engine: EngineId;
  /** Canonical URL of page 1 (no page, post anchor, session id). */
  url: string;
  id: string | null;
}

export interface PageContext {
  /** The URL the page was fetched from (links and times resolve against it). */
  url: string;
  profile: SiteProfile;
  /** When the page was fetched (ISO): the only clock an adapter sees. */
  now: string;
  /** Parse the whole page instead of the descriptor's regions (tests compare the two). */
  wholePage?: boolean;
  /**
   * The page size earlier pages of the thread showed (ThreadPage.postsPerPage), passed
   * along by the reader, from its cache too: where posts show no number, the last page
   * (which cannot show the size) is numbered by it before any default.
   */
  postsPerPage?: number | null;
}

export interface ThreadPage {
  title: string | null;
  /** This page's number, as the page says. */
  page: number;
  pageCount: number;
  /**
   * Posts per page when the page shows it (phpBB start offsets, or the post count of a
   * page before the last); null when unknown (the last or only page).
   */
  postsPerPage: number | null;
  posts: Post[];
  /**
   * What the reader should tell about this page that is no error: posts whose time could
   * not be read (clock rules cannot apply to them), each naming the post.
   */
  warnings?: string[];
  /**
   * More documents of the same page the reader must fetch and parse too (JSON engines:
   * Discourse's topic JSON lists post ids fetched in batches from posts.json).
   */
  next?: string[];
  /**
   * Other pages' URLs as this page links to them (page number -> URL): where only the page
   * tells how its pages are addressed (the generic reader), the thread reader uses them.
   */
  pageUrls?: Record<number, string>;
}

/**
 * An engine adapter is pure: a document in, posts out (NetTally's split). Fetching,
 * retries and caching belong to the fetcher; site quirks to profiles.
 */
export interface EngineAdapter {
  readonly descriptor: EngineDescriptor;
  /** The thread a URL points into (any page, any post anchor). */
  threadRef(url: URL): ThreadRef;
  /** URL of page `page` (1-based). `postsPerPage` is what the thread's pages showed, if known. */
  pageUrl(thread: ThreadRef, page: number, postsPerPage: number | null): string;
  /** Which page a URL of this thread points at (1 where it says nothing). */
  pageOf(url: URL, postsPerPage: number | null): number;
  parsePage(doc: string, ctx: PageContext): ThreadPage;
}

export function defineDescriptor(input: EngineDescriptorInput): EngineDescriptor {
  return EngineDescriptor.parse(input);
}
