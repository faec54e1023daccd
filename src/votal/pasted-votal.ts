import { plainText, type BodyNode } from '../model/body.js';
import type { Post } from '../model/post.js';

/**
 * A votal the GM copied carries no marker (a hidden marker shows the moment a player quotes
 * the post), so Votal finds the GM's paste by its words: the first post after the draft's
 * count, by the GM, whose own text (quotes left out) holds the draft's words in order.
 * Markup, link addresses, punctuation, case and spacing do not count: the forum renders
 * the BBCode, the GM's editor may rewrap it, and a signature or a line of the GM's own
 * around it does not hide it.
 */
export interface PastedVotal {
  /** The draft's body as the GM copied it (BBCode, Markdown or text). */
  body: string;
  /** The last post the draft's count read: the paste comes after it. Null: any post. */
  afterPost: number | null;
  /** The GM's forum names (game setting `gm`); empty: any poster. */
  authors: readonly string[];
}

const HTML_COMMENT = /<!--[\s\S]*?-->/g;
/** `[b]`, `[/url]`, `[url=https://…]`, `[color=#f00]`, `[quote="Ann, post: 3"]`, `[*]`. */
const BBCODE_TAG = /\[\/?[a-z*][a-z0-9*]*(?:=[^\]]*)?\]/gi;
/** A Markdown link or image, `[text](https://…)`: its text is shown, its address is not. */
const MARKDOWN_LINK = /\[([^\]]*)\]\([^)\s]*(?:\s+"[^"]*")?\)/g;
const URL = /\b(?:https?:\/\/|www\.)\S+/gi;
const WORD = /[\p{L}\p{N}]+/gu;

/** A votal's words as a reader sees them, lower-cased, one space apart. */
export function votalWords(text: string): string {
  const shown = text
    .replace(HTML_COMMENT, ' ')
    .replace(MARKDOWN_LINK, ' $1 ')
    .replace(BBCODE_TAG, ' ')
    .replace(URL, ' ');
  return (shown.toLowerCase().match(WORD) ?? []).join(' ');
}

/** A post body without its quotes: what the poster wrote. */
export function ownNodes(body: readonly BodyNode[]): BodyNode[] {
  return body.flatMap((n): BodyNode[] => {
    if (n.t === 'quote') return [];
    if ('children' in n) return [{ ...n, children: ownNodes(n.children) } as BodyNode];
    return [n];
  });
}

const sameName = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether `post` is the GM's paste of `votal` (see PastedVotal). */
export function isPasteOf(post: Post, votal: PastedVotal): boolean {
  if (votal.afterPost !== null && post.number <= votal.afterPost) return false;
  if (votal.authors.length > 0 && !votal.authors.some((name) => sameName(name, post.author))) return false;
  const wanted = votalWords(votal.body);
  if (wanted === '') return false;
  return ` ${votalWords(plainText(ownNodes(post.body)))} `.includes(` ${wanted} `);
}

/** The first post (by number) that is the GM's paste of `votal`, or null. */
export function findPaste(posts: readonly Post[], votal: PastedVotal): Post | null {
  return [...posts].sort((a, b) => a.number - b.number).find((p) => isPasteOf(p, votal)) ?? null;
}
