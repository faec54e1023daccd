import { z } from 'zod';

/**
 * How an engine writes post bodies, as data: CSS selectors (compound selectors, commas
 * allowed) that the shared body builder maps onto the engine-neutral tree. Adding an
 * engine is mostly filling this in; no engine code walks a body itself.
 */
export const QuoteMarkup = z.strictObject({
  selector: z.string(),
  /** Attribute holding the quoted author (XenForo `data-quote`, ProBoards `author`). */
  authorAttr: z.string().optional(),
  /** Element inside the quote holding the author line ("X said:", "X wrote:"). */
  authorSelector: z.string().optional(),
  /** Pattern on the author line; group 1 is the name. */
  authorPattern: z.string().optional(),
  /** Parts of the quote that are chrome, not quoted text ("Click to expand", headers). */
  chrome: z.string().optional(),
  /**
   * The author line stays in the quote as quoted text (the name still read from it): the
   * generic reader guesses the markup, so it keeps what the page shows ("X wrote: ↑ date")
   * rather than drop a line it may have misjudged; quoted, it never counts as the poster's.
   */
  keepAuthorLine: z.boolean().optional(),
});

export const BodyMarkup = z.strictObject({
  /** Dropped entirely: ads, scripts, expand buttons, edit lines printed inside the body. */
  skip: z.string().default('script, style, noscript, iframe, object, embed, form, input, button'),
  quote: z.array(QuoteMarkup).default([{ selector: 'blockquote' }]),
  /**
   * A quote known by its header line, not its classes (vBulletin 3's "Quote:" caption over a
   * table, "Originally Posted by X" inside): a block whose opening line is all of this pattern
   * is a quote; the first non-empty group is the quoted author, else the next line's.
   */
  quoteCaption: z.string().optional(),
  spoiler: z.strictObject({ selector: z.string(), titleSelector: z.string().optional() }).optional(),
  code: z.string().default('pre, code'),
  bold: z.string().default('b, strong'),
  /**
   * The forum's own vote markup, bold and an official vote (MafiaScum's `span.bbvote`): read as
   * a vote tag of its own, apart from bold talk around it ("**Hammer [vote]Bob[/vote].**").
   */
  voteTag: z.string().optional(),
  italic: z.string().default('i, em'),
  underline: z.string().default('u, ins'),
  strike: z.string().default('s, strike, del'),
  /** Smilies and emoji are pictures of feelings, never "images" under the rules. */
  smilie: z.string().default('img.smilie, img.smiley, img.smilies, img.emoji'),
  mention: z.string().default('a.username, a.mention'),
  /** Links the engine marks as internal even when they are absolute to another host name of the board. */
  internalLink: z.string().optional(),
  signature: z.string().optional(),
  /** Element names that start a new line (block level). */
  blocks: z.array(z.string()).default([
    'div',
    'p',
    'li',
    'ul',
    'ol',
    'dl',
    'dd',
    'dt',
    'table',
    'tr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'article',
    'section',
    'aside',
    'header',
    'footer',
    'hr',
    'center',
    'blockquote',
    'details',
    'summary',
    // MafiaScum's [area=Title] is a fieldset whose legend is the title, a line of its own.
    'fieldset',
    'legend',
  ]),
});
export type BodyMarkup = z.infer<typeof BodyMarkup>;
export type BodyMarkupInput = z.input<typeof BodyMarkup>;
