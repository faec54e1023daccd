import { z } from 'zod';
import type { EngineId } from '../model/engine.js';
import { one, parseHtml } from '../../scrapers/dom.js';

/**
 * How each engine's reply form works, as data: where the form is, which field takes
 * the message, what else a browser would send, and how the forum shows a refusal.
 * The form's hidden fields (CSRF tokens, timestamps) are copied at run time.
 *
 * `replyUrl` placeholders: `{thread}` the thread's page-1 URL, `{dir}` the folder of that
 * URL (phpBB's `posting.php` sits beside `viewtopic.php`), `{id}` the thread id.
 */
export const FormFacts = z.strictObject({
  replyUrl: z.string().min(1),
  /** CSS selector of the reply form on that page. */
  form: z.string().min(1),
  messageField: z.string().min(1),
  /** Fields a browser sends besides the form's own inputs (the submit button's name/value). */
  fields: z.record(z.string(), z.string()).default({}),
  /** Inputs of the form not to send (a "preview" button). */
  skip: z.array(z.string()).default([]),
  /** Where the answer page shows why the post was refused. */
  errorSelector: z.string().optional(),
});
export type FormFacts = z.infer<typeof FormFacts>;

const facts = (f: z.input<typeof FormFacts>): FormFacts => FormFacts.parse(f);

export const FORM_FACTS: Partial<Record<EngineId, FormFacts>> = {
  xenforo2: facts({
    replyUrl: '{thread}reply',
    form: 'form[action*="add-reply"]',
    messageField: 'message',
    errorSelector: '.blockMessage--error, .formRow--error, .block-body--error',
  }),
  xenforo1: facts({
    replyUrl: '{thread}reply',
    form: 'form[action*="add-reply"]',
    messageField: 'message',
    errorSelector: '.errorOverlay, .errors',
  }),
  phpbb: facts({
    replyUrl: '{dir}posting.php?mode=reply&t={id}',
    form: 'form#postform',
    messageField: 'message',
    fields: { post: 'Submit' },
    skip: ['preview', 'save', 'load'],
    errorSelector: '#postform p.error, .error',
  }),
  vbulletin3: facts({
    replyUrl: '{dir}newreply.php?do=newreply&t={id}',
    form: 'form[name="vbform"]',
    messageField: 'message',
    fields: { do: 'postreply', sbutton: 'Submit Reply' },
    skip: ['preview'],
    errorSelector: '.blockrow.error, .standard_error',
  }),
  vbulletin4: facts({
    replyUrl: '{dir}newreply.php?do=newreply&t={id}',
    form: 'form[name="vbform"]',
    messageField: 'message',
    fields: { do: 'postreply', sbutton: 'Submit Reply' },
    skip: ['preview'],
    errorSelector: '.blockrow.error, .standard_error',
  }),
  smf: facts({
    replyUrl: '{dir}index.php?action=post;topic={id}.0',
    form: 'form#postmodify',
    messageField: 'message',
    fields: { post: 'Post' },
    skip: ['preview'],
    errorSelector: '#post_error, .errorbox',
  }),
  mybb: facts({
    replyUrl: '{dir}newreply.php?tid={id}',
    form: 'form[name="input"]',
    messageField: 'message',
    fields: { submit: 'Post Reply', action: 'do_newreply' },
    skip: ['previewpost'],
    errorSelector: '.error',
  }),
};

/** The reply page's URL for a thread. */
export function replyUrl(facts: FormFacts, thread: { url: string; id: string | null }): string {
  const dir = new URL('.', thread.url).href;
  return facts.replyUrl
    .replace('{thread}', thread.url.endsWith('/') ? thread.url : `${thread.url}/`)
    .replace('{dir}', dir)
    .replace('{id}', encodeURIComponent(thread.id ?? ''));
}

/**
 * How a browser fills each engine's reply form (browser-post.ts), as data: the plain-text
 * editor to type into, an optional control that switches a rich editor to that plain-text
 * editor first (XenForo's "BB code" toggle), and the button that posts.
 */
export const BrowserFacts = z.strictObject({
  /** CSS selector of the plain-text reply editor (a textarea). */
  editor: z.string().min(1),
  /** Clicked first when present: turns a rich (WYSIWYG) editor into its plain-text fallback. */
  plainTextToggle: z.string().min(1).optional(),
  /** CSS selector of the button that posts the reply (not "preview"). */
  submit: z.string().min(1),
});
export type BrowserFacts = z.infer<typeof BrowserFacts>;

const browserFacts = (f: z.input<typeof BrowserFacts>): BrowserFacts => BrowserFacts.parse(f);

export const BROWSER_FACTS: Partial<Record<EngineId, BrowserFacts>> = {
  xenforo2: browserFacts({
    editor: 'textarea[name="message"]',
    plainTextToggle: '.fr-toolbar [data-cmd="xfBbCode"]',
    submit: 'form[action*="add-reply"] button[type="submit"].button--primary, form[action*="add-reply"] button[type="submit"]',
  }),
  xenforo1: browserFacts({
    editor: 'textarea[name="message"]',
    plainTextToggle: '.redactor_toolbar .redactor_btn_switchmode',
    submit: 'form[action*="add-reply"] input[type="submit"].primary, form[action*="add-reply"] input[type="submit"]',
  }),
  phpbb: browserFacts({ editor: 'textarea#message, textarea[name="message"]', submit: 'form#postform input[name="post"]' }),
  vbulletin3: browserFacts({ editor: 'textarea[name="message"]', submit: 'form[name="vbform"] input[name="sbutton"]' }),
  vbulletin4: browserFacts({ editor: 'textarea[name="message"]', submit: 'form[name="vbform"] input[name="sbutton"]' }),
  smf: browserFacts({ editor: 'textarea[name="message"]', submit: 'form#postmodify input[name="post"]' }),
  mybb: browserFacts({ editor: 'textarea[name="message"]', submit: 'form[name="input"] input[name="submit"]' }),
};

/**
 * Whether a reply page (as plain HTTP sees it) can only be posted with JavaScript: the
 * engine's reply form is not in its HTML, the page carries scripts (which build the
 * form), and it is not a login page (a password field: the session has expired, and a
 * browser would not help).
 */
export function formNeedsJavaScript(html: string, facts: FormFacts): boolean {
  const doc = parseHtml(html);
  if (one(doc, facts.form)) return false;
  if (one(doc, 'input[type="password" i]')) return false;
  return one(doc, 'script') !== null;
}
