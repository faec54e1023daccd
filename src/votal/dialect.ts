import { z } from 'zod';
import type { EngineId } from '../model/engine.js';

/**
 * The markup a votal is written in. BBCode is not one language: each engine family has
 * its own tags, its own way (or none) to stop parsing, and its own smilies.
 */
export const Dialect = z.enum([
  'bbcode-xenforo', 'bbcode-phpbb', 'bbcode-vbulletin', 'bbcode-proboards', 'bbcode-smf',
  'bbcode-mybb', 'bbcode-invision', 'gog', 'markdown',
]);
export type Dialect = z.infer<typeof Dialect>;

/** Which dialect a forum engine's posts are written in. Every engine has an entry. */
const ENGINE_DIALECT: Readonly<Record<EngineId, Dialect>> = {
  xenforo1: 'bbcode-xenforo',
  xenforo2: 'bbcode-xenforo',
  phpbb: 'bbcode-phpbb',
  vbulletin3: 'bbcode-vbulletin',
  vbulletin4: 'bbcode-vbulletin',
  vbulletin5: 'bbcode-vbulletin',
  proboards: 'bbcode-proboards',
  smf: 'bbcode-smf',
  mybb: 'bbcode-mybb',
  invision: 'bbcode-invision',
  gog: 'gog',
  discourse: 'markdown',
  nodebb: 'markdown',
};

export function dialectFor(engine: EngineId): Dialect {
  return ENGINE_DIALECT[engine];
}

/** A tag pair: what goes before and after the marked-up text. */
export type Wrap = readonly [open: string, close: string];

export interface DialectSpec {
  readonly id: Dialect;
  /** `bbcode` (GOG included: its few tags are BBCode) or `markdown`. */
  readonly family: 'bbcode' | 'markdown';
  /**
   * The tag whose content the engine shows as typed (no tags, and for XenForo and vBulletin
   * no smilies). Null where the engine has none: brackets in names become look-alikes.
   */
  readonly noParse: string | null;
  /** Typed smilie codes (`:)`, `8)`, `:D`, `:cool:`) become pictures: break them with a zero-width joiner. */
  readonly smilies: boolean;
  /** The engine may render HTML typed in a post (ProBoards, Invision): `<` and `>` become look-alikes. */
  readonly html: boolean;
  readonly bold: Wrap;
  readonly italic: Wrap;
  /** A link: `{href}` and `{text}` are replaced. */
  readonly link: string;
  /** A bulleted list; null: items are written as plain lines. */
  readonly list: { readonly open: string; readonly item: string; readonly close: string } | null;
  /** `{color}` and `{text}` are replaced; null: the dialect has no colours. */
  readonly color: string | null;
}

const bb = {
  family: 'bbcode',
  noParse: null,
  smilies: true,
  html: false,
  bold: ['[b]', '[/b]'],
  italic: ['[i]', '[/i]'],
  link: '[url={href}]{text}[/url]',
  list: { open: '[list]', item: '[*]', close: '[/list]' },
  color: '[color={color}]{text}[/color]',
} as const satisfies Omit<DialectSpec, 'id'>;

/**
 * What each dialect supports, checked against the engines' own BB code tables:
 * - XenForo 1 and 2: `[PLAIN]` (plain children, smilies and auto-links stopped).
 * - vBulletin 3.8, 4 and 5: `[NOPARSE]` (stop_parse, disable_smilies) in the default tag list.
 * - SMF 2: `[nobbc]` (unparsed content; smilies are still broken by hand to be safe).
 * - phpBB 3, MyBB 1.8, ProBoards, Invision: no no-parse tag in the default install.
 * - ProBoards and Invision may render HTML typed in a post: `<` `>` become look-alikes.
 * - ProBoards' list markup is not verified here: its wagons are plain lines.
 * - GOG knows [b] [i] [u] [url] [quote] only, and shows typed smilies as text.
 * - Markdown (Discourse, NodeBB): backslash escapes; `:)`, `<3` and `:smile:` become emoji,
 *   so they are broken like smilies; a line break is a line break on both.
 * Where a no-parse tag exists, smilie codes are still broken: the joiner is invisible and
 * the tag's smilie handling differs (SMF's [nobbc] is not documented to stop them).
 */
export const DIALECTS: Readonly<Record<Dialect, DialectSpec>> = {
  'bbcode-xenforo': { ...bb, id: 'bbcode-xenforo', noParse: 'PLAIN' },
  'bbcode-vbulletin': { ...bb, id: 'bbcode-vbulletin', noParse: 'NOPARSE' },
  'bbcode-smf': { ...bb, id: 'bbcode-smf', noParse: 'nobbc' },
  'bbcode-phpbb': { ...bb, id: 'bbcode-phpbb' },
  'bbcode-mybb': { ...bb, id: 'bbcode-mybb' },
  'bbcode-proboards': { ...bb, id: 'bbcode-proboards', html: true, list: null },
  'bbcode-invision': { ...bb, id: 'bbcode-invision', html: true },
  gog: { ...bb, id: 'gog', smilies: false, list: null, color: null },
  markdown: {
    id: 'markdown',
    family: 'markdown',
    noParse: null,
    smilies: true,
    html: false,
    bold: ['**', '**'],
    italic: ['*', '*'],
    link: '[{text}]({href})',
    list: { open: '', item: '- ', close: '' },
    color: null,
  },
};

export function dialectSpec(dialect: Dialect): DialectSpec {
  return DIALECTS[dialect];
}
