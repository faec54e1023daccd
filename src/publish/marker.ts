import { randomBytes } from 'node:crypto';
import { plainText, type BodyNode } from '../model/body.js';
import { Dialect, dialectSpec } from '../votal/dialect.js';
import { ownNodes } from '../votal/pasted-votal.js';

/**
 * Every votal Votal posts itself (an API, the reply form) carries a marker:
 * `votal:<draft id>.<random>`, unique per publication (the random part keeps two Votal
 * installations posting into one thread apart). It is written so readers do not see it and
 * the forum keeps it:
 * - BBCode: `[color=transparent]votal:12.ab12cd34[/color]` on a line of its own;
 * - Markdown (Discourse, NodeBB): an HTML comment `<!-- votal:12.ab12cd34 -->`.
 * Before any retry the thread's last posts are searched for it.
 * A votal the GM copies carries none (a player quoting it would see it): it is found by
 * its words instead (src/votal/pasted-votal.ts).
 */

export function newMarker(draftId: number): string {
  return `votal:${draftId}.${randomBytes(4).toString('hex')}`;
}

const MARKER = /^votal:\d+\.[0-9a-f]{8}$/;

function isMarker(text: string): boolean {
  return MARKER.test(text);
}

/**
 * The marker as it is written in a post of this dialect: an HTML comment in Markdown, a
 * transparent colour where the BBCode dialect has colours, else (GOG) small italic text.
 */
export function markerLine(dialect: string, marker: string): string {
  if (!isMarker(marker)) throw new TypeError(`not a Votal marker: ${JSON.stringify(marker)}`);
  const known = Dialect.safeParse(dialect);
  const spec = known.success ? dialectSpec(known.data) : null;
  if (dialect === 'markdown' || spec?.family === 'markdown') return `<!-- ${marker} -->`;
  if (spec && spec.color === null) return `${spec.italic[0]}${marker}${spec.italic[1]}`;
  return `[color=transparent]${marker}[/color]`;
}

/** The message to post: the votal, then its marker line. */
export function withMarker(body: string, dialect: string, marker: string): string {
  return `${body.replace(/\s+$/, '')}\n\n${markerLine(dialect, marker)}`;
}

/** Whether raw source text (BBCode or Markdown as stored by the forum) carries the marker. */
export function rawHasMarker(raw: string, marker: string): boolean {
  return raw.includes(marker);
}

/** Whether a parsed post body carries the marker in its own text (quotes of it do not count). */
export function bodyHasMarker(body: readonly BodyNode[], marker: string): boolean {
  return plainText(ownNodes(body)).includes(marker);
}
