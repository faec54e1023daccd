import { z } from 'zod';

/**
 * The markup a votal is written in. BBCode is not one language: each engine family has
 * its own tags, its own way (or none) to stop parsing, and its own smilies. The ids are
 * stored with every draft: add, never rename. Each engine's descriptor (scrapers/<engine>.ts)
 * says which one it reads and what that dialect supports.
 */
export const Dialect = z.enum([
  'bbcode-xenforo',
  'bbcode-phpbb',
  'bbcode-vbulletin',
  'bbcode-proboards',
  'bbcode-smf',
  'bbcode-mybb',
  'bbcode-invision',
  'gog',
  'markdown',
  'markdown-vanilla',
  'bbcode-fluxbb',
]);
export type Dialect = z.infer<typeof Dialect>;

/** A tag pair: what goes before and after the marked-up text. */
export const Wrap = z.tuple([z.string(), z.string()]).readonly();
export type Wrap = z.infer<typeof Wrap>;

/** What a dialect supports: how the votal renderer (src/votal/) writes and escapes in it. */
export const DialectSpec = z
  .strictObject({
    id: Dialect,
    /** `bbcode` (GOG included: its few tags are BBCode) or `markdown`. */
    family: z.enum(['bbcode', 'markdown']),
    /**
     * The tag whose content the engine shows as typed (no tags, and for XenForo and vBulletin
     * no smilies). Null where the engine has none: brackets in names become look-alikes.
     */
    noParse: z.string().nullable(),
    /** Typed smilie codes (`:)`, `8)`, `:D`, `:cool:`) become pictures: break them with a zero-width joiner. */
    smilies: z.boolean(),
    /** The engine may render HTML typed in a post (ProBoards, Invision): `<` and `>` become look-alikes. */
    html: z.boolean(),
    bold: Wrap,
    italic: Wrap,
    /** A link: `{href}` and `{text}` are replaced. */
    link: z.string(),
    /** A bulleted list; null: items are written as plain lines. */
    list: z.strictObject({ open: z.string(), item: z.string(), close: z.string() }).readonly().nullable(),
    /** `{color}` and `{text}` are replaced; null: the dialect has no colours. */
    color: z.string().nullable(),
  })
  .readonly();
export type DialectSpec = z.infer<typeof DialectSpec>;

/** The BBCode most engines share; an engine's dialect is this with its own differences. */
export const BBCODE = {
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
 * Markdown as Discourse and NodeBB read it: backslash escapes; `:)`, `<3` and `:smile:`
 * become emoji, so they are broken like smilies; a line break is a line break on both.
 */
export const MARKDOWN = {
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
} as const satisfies DialectSpec;
