import type { BodyNode, LinkKind } from '../../src/model/body.js';
import type { EditMarker } from '../../src/model/post.js';
import { Roster, type SlotInput } from '../../src/model/roster.js';
import { Ruleset, type RulesetInput } from '../../src/rules/ruleset.js';
import type { PostInput } from '../../src/parse/read-post.js';

/** Small constructors for engine-neutral bodies: strings become text nodes. */
export type Piece = BodyNode | string;

const nodes = (pieces: readonly Piece[]): BodyNode[] =>
  pieces.map((p) => (typeof p === 'string' ? { t: 'text', text: p } : p));

export const text = (t: string): BodyNode => ({ t: 'text', text: t });
export const br = (): BodyNode => ({ t: 'br' });
export const b = (...c: Piece[]): BodyNode => ({ t: 'bold', children: nodes(c) });
export const i = (...c: Piece[]): BodyNode => ({ t: 'italic', children: nodes(c) });
export const u = (...c: Piece[]): BodyNode => ({ t: 'underline', children: nodes(c) });
export const s = (...c: Piece[]): BodyNode => ({ t: 'strike', children: nodes(c) });
export const color = (c: string, ...children: Piece[]): BodyNode => ({
  t: 'color',
  color: c,
  children: nodes(children),
});
export const size = (sz: string, ...children: Piece[]): BodyNode => ({
  t: 'size',
  size: sz,
  children: nodes(children),
});
export const block = (...c: Piece[]): BodyNode => ({ t: 'block', children: nodes(c) });
export const quote = (author: string | null, ...c: Piece[]): BodyNode => ({ t: 'quote', author, children: nodes(c) });
export const spoiler = (...c: Piece[]): BodyNode => ({ t: 'spoiler', title: null, children: nodes(c) });
export const code = (t: string): BodyNode => ({ t: 'code', text: t });
export const sig = (...c: Piece[]): BodyNode => ({ t: 'signature', children: nodes(c) });
export const img = (src: string): BodyNode => ({ t: 'image', src });
export const smilie = (alt: string): BodyNode => ({ t: 'smilie', alt });
const linkOf =
  (kind: LinkKind) =>
  (href: string, ...c: Piece[]): BodyNode => ({ t: 'link', href, kind, children: nodes(c) });
export const link = linkOf('external');
export const internal = linkOf('internal');
export const mention = (name: string): BodyNode => ({
  t: 'link',
  href: `/members/${encodeURIComponent(name)}.1/`,
  kind: 'mention',
  children: [text(`@${name}`)],
});

/** A post's body from pieces. */
export const body = (...c: Piece[]): BodyNode[] => nodes(c);
export const post = (...c: Piece[]): PostInput => ({ body: nodes(c), edit: null });
export const edited = (marker: string, ...c: Piece[]): PostInput => {
  const edit: EditMarker = { at: null, by: null, text: marker };
  return { body: nodes(c), edit };
};

/** The players most cases use: short names, look-alikes, initials, a replaced slot, a dead one. */
const PLAYERS: SlotInput[] = [
  { name: 'Alice' },
  { name: 'Alicia' },
  { name: 'Bob' },
  { name: 'Bobby' },
  { name: 'Mallory', aliases: ['Mal'] },
  { name: 'Peggy Sue' },
  { name: 'Dr. Who' },
  { name: 'xXShadowXx' },
  { name: 'Zeke' },
  { name: 'José' },
  { name: 'Robert', formerNames: ['Trent'] },
  { name: 'Eve', alive: false },
];

export const roster = (players: readonly (SlotInput | string)[] = PLAYERS): Roster =>
  Roster.parse(players.map((p) => (typeof p === 'string' ? { name: p } : p)));

export const rules = (input: Partial<RulesetInput> = {}): Ruleset =>
  Ruleset.parse({ name: 'test', title: 'Test', threshold: { kind: 'majority' }, ...input });

export const grammar = (votes: RulesetInput['votes'] = {}): Ruleset['votes'] => rules({ votes }).votes;
