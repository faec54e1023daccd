import type { Body, BodyNode } from '../model/body.js';
import type { Post } from '../model/post.js';

/**
 * A game the GM switched from its engine's adapter to the generic reader (issue #26) keeps
 * the posts the adapter stored: posts are keyed by the forum's id (`post.forum_post_id`),
 * and the generic reader may take another id from the page (an anchor instead of the
 * adapter's attribute) or none (then it hashes author and time). Read as-is, every post the
 * adapter stored would come back as a new one beside it (counted twice), and each of its
 * bodies, built by another reader, as an edit.
 *
 * So a post read generically on a page is the post the adapter stored when it has the
 * stored post's id, or else the same place in the thread and the same author (a stored post
 * not otherwise on the page): it keeps the stored id. Where it also reads the same (the same
 * text with the same bold, quotes, strikes, colours and spoilers) the adapter's reading
 * stands, only its place in the thread follows the page; where it reads otherwise it is an
 * edit, shown to the GM as any edit is, never silently replaced.
 */

/** A stored post as the switch compares it (`StoredPost`, structurally). */
export interface StoredReading extends Post {
  deleted: boolean;
  firstSeen: string;
}

/** The page's posts as the store knows them: the adapter's ids, and its reading where the generic reading agrees. */
export function asStored(posts: readonly Post[], stored: readonly StoredReading[], switchedAt: string): Post[] {
  const before = Date.parse(switchedAt);
  const byAdapter = stored.filter((s) => Date.parse(s.firstSeen) <= before);
  const onPage = new Set(posts.map((p) => p.id));
  const byId = new Map(stored.map((s) => [s.id, s]));
  const taken = new Set<string>();
  return posts.map((post) => {
    const known = byId.get(post.id);
    const same =
      known ??
      byAdapter.find(
        (s) =>
          !s.deleted && !onPage.has(s.id) && !taken.has(s.id) && s.number === post.number && s.author === post.author,
      );
    if (!same || Date.parse(same.firstSeen) > before) return post;
    taken.add(same.id);
    if (readingOf(same.body) !== readingOf(post.body)) return { ...post, id: same.id };
    return {
      id: same.id,
      number: post.number,
      page: post.page,
      author: same.author,
      authorId: same.authorId,
      postedAt: same.postedAt,
      permalink: same.permalink,
      edit: same.edit,
      bodyHash: same.bodyHash,
      body: same.body,
    };
  });
}

/**
 * What the vote parser reads of a body: its text with the marks that change a reading (bold,
 * italic, underline, strike, colour, quote, spoiler, code, signature, an unreadable part).
 * White space, blocks, breaks, sizes, images, link targets and quote attributions are how a
 * reader draws a post, and may differ between two readers of one post.
 */
export function readingOf(body: Body): string {
  let out = '';
  const walk = (nodes: readonly BodyNode[]): void => {
    for (const n of nodes) {
      switch (n.t) {
        case 'text':
          out += n.text;
          break;
        case 'code':
          out += `{code}${n.text}{/code}`;
          break;
        case 'smilie':
          out += n.alt;
          break;
        case 'unreadable':
          out += '{unreadable}';
          break;
        case 'br':
        case 'image':
          break;
        case 'block':
        case 'size':
        case 'link':
          walk(n.children);
          break;
        case 'color':
          out += `{color:${n.color.toLowerCase()}}`;
          walk(n.children);
          out += '{/color}';
          break;
        default:
          out += `{${n.t}}`;
          walk(n.children);
          out += `{/${n.t}}`;
      }
    }
  };
  walk(body);
  return out.replace(/\s+/g, '');
}
