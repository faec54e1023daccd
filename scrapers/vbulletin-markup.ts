import { BBCODE, type DialectSpec } from '../src/model/dialect.js';
import type { EditMarker } from '../src/model/post.js';
import type { BrowserFacts, FormFacts } from '../src/model/reply-form.js';
import { fromForumText, type TextDateOptions } from './forum-time.js';
import type { BodyMarkupInput } from './markup.js';

/*
 * What every vBulletin version shares (3, 4 and 5): the votal dialect, the bbcode_* quote
 * and code markup, spoiler guesses, the edit note phrase, member ids.
 */

/** vBulletin 3.8, 4 and 5 have [NOPARSE] (stop_parse, disable_smilies) in the default tag list. */
export const VB_DIALECT: DialectSpec = { ...BBCODE, id: 'bbcode-vbulletin', noParse: 'NOPARSE' };

/** vBulletin 3 and 4 share newreply.php and its `vbform` (vBulletin 5 posts through its own API). */
export const VB_REPLY_FORM: FormFacts = {
  replyUrl: '{dir}newreply.php?do=newreply&t={id}',
  form: 'form[name="vbform"]',
  messageField: 'message',
  fields: { do: 'postreply', sbutton: 'Submit Reply' },
  skip: ['preview'],
  errorSelector: '.blockrow.error, .standard_error',
};

export const VB_BROWSER_REPLY: BrowserFacts = {
  editor: 'textarea[name="message"]',
  submit: 'form[name="vbform"] input[name="sbutton"]',
};

/**
 * The `bbcode_*` quote markup of vBulletin 4 and 5 (and of some 3.8 skins):
 * `.bbcode_quote > .quote_container > .bbcode_postedby` ("Originally Posted by
 * <strong>X</strong>" + view-post link) + `.message`. A quote is "named" only when its
 * own container has the posted-by line, so an unnamed quote never takes the name of a
 * quote nested inside it. The name is the `<strong>`, whatever the board's language.
 */
export const VB_BBCODE_QUOTES: NonNullable<BodyMarkupInput['quote']> = [
  { selector: '.bbcode_quote:has(> .quote_container > .bbcode_postedby)', authorSelector: '.bbcode_postedby strong' },
  { selector: '.bbcode_quote' },
];

/** Chrome of the `bbcode_*` blocks: posted-by lines, "Code:" captions, the quote icon. */
export const VB_BBCODE_CHROME = '.bbcode_postedby, .bbcode_description, .bbcode_quote_container';

/**
 * Spoilers are not core BBCode in any vBulletin version (custom BBCode per board);
 * these are common custom replacements: a `spoiler` class (AnimeSuki's stylesheet has
 * one) and the vbulletin.org show/hide box with an `<input type=button>`. [M]
 */
export const VB_SPOILER = {
  selector: '.spoiler, .bbcode_spoiler, div[style*="margin:20px"]:has(> div.smallfont > input[type="button"])',
  titleSelector: 'div.smallfont',
};

/** The body markup vBulletin 4 and 5 share (vB5 kept vB4's bbcode_* HTML). */
export const VB_BBCODE_BODY = {
  skip: `script, style, noscript, iframe, object, embed, form, input, button, ${VB_BBCODE_CHROME}`,
  quote: VB_BBCODE_QUOTES,
  spoiler: VB_SPOILER,
  code: 'pre.bbcode_code, div.bbcode_code, pre, code',
  // No core [S] (custom BBCode): <strike>/<s> or a line-through span.
  strike: 's, strike, del, span[style*="line-through"]',
  // img.inlineimg is also the view-post arrow and status icons: only smilies count.
  smilie: 'img[src*="smilies"], img[smilieid]',
} satisfies BodyMarkupInput;

/**
 * vBulletin's edit note, the same phrase in 3, 4 and 5: "Last edited by X; 2016-02-01
 * at 03:31." (+ "Reason: ..."). The date is in the board's zone and format.
 */
export function vbEditNote(raw: string, dates: TextDateOptions): EditMarker {
  const noteText = raw.replace(/\s+/g, ' ').trim();
  const m = /\bby\s+(.+?);\s*(.+?)(?:\.?\s*Reason:.*)?\.?$/i.exec(noteText);
  return { at: m ? fromForumText(m[2]!, dates) : null, by: m?.[1]?.trim() || null, text: noteText };
}

/** `member.php?u=123`, `member.php/123-name` (vB3/4 friendly URLs), `/member/123-name` (vB5). */
export function memberId(href: string | null): string | null {
  return /member(?:\.php)?(?:\/|\?(?:[^#]*?&)?u(?:serid)?=)(\d+)/.exec(href ?? '')?.[1] ?? null;
}
