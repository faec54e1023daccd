import { z } from 'zod';

/**
 * How an engine's reply form works, as data: where the form is, which field takes the
 * message, what else a browser would send, and how the forum shows a refusal. The form's
 * hidden fields (CSRF tokens, timestamps) are copied at run time (src/publish/form-post.ts).
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

/**
 * How a browser fills the reply form (src/publish/browser-post.ts), as data: the plain-text
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
