import { engineFacts } from '../../scrapers/registry.js';
import type { EngineId } from '../model/engine.js';
import type { BrowserFacts, FormFacts } from '../model/reply-form.js';
import { one, parseHtml } from '../../scrapers/dom.js';

/*
 * How Votal posts through an engine's reply form, read from the engine's descriptor
 * (scrapers/<engine>.ts: `replyForm`, `browserReply`). No table of engines here.
 */

export { BrowserFacts, FormFacts } from '../model/reply-form.js';

/** The engine's reply form; null where Votal does not post through it (copy or an API). */
export function formFactsFor(engine: EngineId): FormFacts | null {
  return engineFacts(engine).replyForm ?? null;
}

/** How a browser fills the engine's reply form; null where no browser can post there. */
export function browserFactsFor(engine: EngineId): BrowserFacts | null {
  return engineFacts(engine).browserReply ?? null;
}

/** The reply page's URL for a thread. */
export function replyUrl(facts: FormFacts, thread: { url: string; id: string | null }): string {
  const dir = new URL('.', thread.url).href;
  return facts.replyUrl
    .replace('{thread}', thread.url.endsWith('/') ? thread.url : `${thread.url}/`)
    .replace('{dir}', dir)
    .replace('{id}', encodeURIComponent(thread.id ?? ''));
}

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
