import type { CookieJar } from 'tough-cookie';
import type { EngineId } from '../model/engine.js';
import { all, attr, one, parseHtml, type Element } from '../../scrapers/dom.js';
import { adapterOf } from '../../scrapers/identify.js';
import { textContent } from 'domutils';
import { formFactsFor, replyUrl, type FormFacts } from './form-facts.js';
import { statusError, type PublishHttp } from './http.js';
import { PublishConfigError, PublishError, type Publisher, type RemotePost } from './publisher.js';
import { findMarkerInThread, findPasteInThread } from './thread-scan.js';

/**
 * Posting through the forum's own reply form with a stored login (a cookie jar):
 * GET the reply page, copy every field of its form (CSRF tokens, timestamps), set the
 * message, POST it back. Per-engine facts (form-facts.ts) say where the form is. The
 * marker is looked for on the thread's last pages, read as the logged-in user.
 */

export interface FormPostOptions {
  threadUrl: string;
  engine: EngineId;
  /** The logged-in session; Set-Cookie answers refresh it. */
  jar: CookieJar;
  http: PublishHttp;
  /** Override the engine's facts (a board with a customised form). */
  facts?: FormFacts;
}

export function formPostPublisher(opts: FormPostOptions): Publisher {
  const facts = opts.facts ?? formFactsFor(opts.engine);
  if (!facts) {
    throw new PublishConfigError(
      `posting through the reply form is not supported on ${opts.engine} yet; use the API or copy`,
    );
  }
  const thread = adapterOf(opts.engine).threadRef(new URL(opts.threadUrl));
  const cookieHeader = (url: string): string | undefined => opts.jar.getCookieStringSync(url) || undefined;
  const keepCookies = (url: string, headers: Headers): void => {
    for (const value of headers.getSetCookie()) opts.jar.setCookieSync(value, url, { ignoreError: true });
  };
  const withCookies = (url: string, headers: Record<string, string> = {}): Record<string, string> => {
    const cookie = cookieHeader(url);
    return cookie ? { ...headers, cookie } : headers;
  };

  return {
    kind: 'form',

    find(marker) {
      return findMarkerInThread({ threadUrl: thread.url, engine: opts.engine, http: opts.http, cookieHeader }, marker);
    },

    /** A votal the GM copied before this game could post (see src/votal/pasted-votal.ts). */
    findPasted(votal) {
      return findPasteInThread({ threadUrl: thread.url, engine: opts.engine, http: opts.http, cookieHeader }, votal);
    },

    async post(message): Promise<RemotePost> {
      const pageUrl = replyUrl(facts, thread);
      const page = await opts.http.send(pageUrl, { what: 'opening the reply form', headers: withCookies(pageUrl) });
      keepCookies(page.url, page.headers);
      const pageError = statusError(page, 'opening the reply form');
      if (pageError) throw new PublishError(pageError.message, 'rejected', pageError.retryable, pageError.status);
      if (page.status !== 200) {
        throw new PublishError(
          `opening the reply form: HTTP ${page.status} (the login may have expired; import the forum cookies again)`,
          'rejected',
          false,
          page.status,
        );
      }
      const form = one(parseHtml(page.text), facts.form);
      if (!form) {
        throw new PublishError(
          'opening the reply form: no reply form on the page (the login may have expired, or the thread is locked)',
          'rejected',
          false,
          page.status,
        );
      }
      const action = new URL(attr(form, 'action') || page.url, page.url).href;
      const fields = formFields(form, facts);
      fields.set(facts.messageField, message);

      const answer = await opts.http.send(action, {
        method: 'POST',
        what: 'posting the votal',
        headers: withCookies(action, { 'content-type': 'application/x-www-form-urlencoded', referer: page.url }),
        body: fields.toString(),
      });
      keepCookies(answer.url, answer.headers);
      const error = statusError(answer, 'posting the votal');
      if (error) throw error;
      if (answer.status === 200 && facts.errorSelector) {
        const refusal = one(parseHtml(answer.text), facts.errorSelector);
        if (refusal) {
          const why = textContent(refusal).replace(/\s+/g, ' ').trim().slice(0, 200);
          throw new PublishError(
            `posting the votal: the forum refused it${why ? `: ${why}` : ''}`,
            'rejected',
            false,
            200,
          );
        }
      }
      const location = answer.headers.get('location');
      const url = location ? new URL(location, answer.url).href : null;
      return { id: url ? postIdFrom(url) : null, url };
    },
  };
}

/** What a browser would submit: named inputs with their values, textareas, selected options. */
function formFields(form: Element, facts: FormFacts): URLSearchParams {
  const fields = new URLSearchParams();
  const skip = new Set(facts.skip);
  for (const el of all(form, 'input[name], textarea[name], select[name]')) {
    const name = attr(el, 'name')!;
    if (skip.has(name) || name === facts.messageField) continue;
    if (el.name === 'textarea') {
      fields.append(name, textContent(el));
      continue;
    }
    if (el.name === 'select') {
      const option = one(el, 'option[selected]') ?? one(el, 'option');
      if (option) fields.append(name, attr(option, 'value') ?? textContent(option));
      continue;
    }
    const type = (attr(el, 'type') ?? 'text').toLowerCase();
    if (type === 'submit' || type === 'image' || type === 'button' || type === 'file' || type === 'reset') continue;
    if ((type === 'checkbox' || type === 'radio') && attr(el, 'checked') === null) continue;
    fields.append(name, attr(el, 'value') ?? (type === 'checkbox' ? 'on' : ''));
  }
  for (const [name, value] of Object.entries(facts.fields)) fields.set(name, value);
  return fields;
}

/** `…/post-123`, `#p123`, `p=123`, `#post123`, `pid=123`, `msg123`. */
function postIdFrom(url: string): string | null {
  const m = /(?:post-|#p|[?&]p=|#post|[?&]pid=|#msg|msg)(\d+)/.exec(url);
  return m ? m[1]! : null;
}
