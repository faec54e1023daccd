/**
 * "#1,326", "Reply #12", "12" -> 12; null when the text holds no number, or one below
 * `least` (1: most forums count from 1; MafiaScum shows "#0" on the opening post).
 */
export function postNumber(s: string | null | undefined, least = 1): number | null {
  const m = /#?\s*(\d[\d,.\u00a0 ]*)/.exec(s ?? '');
  if (!m) return null;
  const n = Number(m[1]!.replace(/[,.\u00a0 ]/g, ''));
  return Number.isInteger(n) && n >= least ? n : null;
}

/** What a page tells of the thread's page size. */
export interface PageSizeEvidence {
  /** The size the page states (phpBB and SMF start offsets, Invision's pager), if it does. */
  stated?: number | null;
  page: number;
  pageCount: number;
  /** Posts read from the page. */
  postsOnPage: number;
}

/** The thread's page size as this page shows it: stated, or the post count of a full page (any page before the last). */
export function shownPageSize(e: PageSizeEvidence): number | null {
  return e.stated ?? (e.page < e.pageCount && e.postsOnPage > 0 ? e.postsOnPage : null);
}

/**
 * Posts per page for numbering posts by their place where the forum shows no number:
 * what this page shows, the site profile, what an earlier page of the thread showed
 * (the reader passes it along, also when it resumes from its cache), and only then
 * the engine's default. The last page cannot show the size; it must not fall back to
 * the default while the thread's other pages said otherwise.
 */
export function pageSizeFor(
  e: PageSizeEvidence,
  ctx: { profile: { postsPerPage?: number | undefined }; postsPerPage?: number | null | undefined },
  engineDefault: number,
): number {
  return e.stated ?? ctx.profile.postsPerPage ?? shownPageSize(e) ?? ctx.postsPerPage ?? engineDefault;
}

/** The 1-based place in the thread of the `index`th (0-based) post of page `page`. */
export function placeInThread(page: number, index: number, perPage: number): number {
  return (page - 1) * perPage + index + 1;
}
