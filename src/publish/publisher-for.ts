import { publishAad } from '../config/publish-settings.js';
import { MissingSecretKeyError, type SecretBox } from '../config/secrets.js';
import type { SecretScrubber } from '../log/logger.js';
import type { EngineId } from '../model/engine.js';
import type { Game } from '../model/game.js';
import type { CookieJar } from 'tough-cookie';
import { BrowserUnavailableError } from '../browser/errors.js';
import { browserPublisher, type BrowserPostOptions } from './browser-post.js';
import { jarFromJson } from './cookie-jar.js';
import { copyPublisher } from './copy.js';
import { discourseApiPublisher } from './discourse-api.js';
import { browserFactsFor, formFactsFor, formNeedsJavaScript, replyUrl } from './form-facts.js';
import { formPostPublisher } from './form-post.js';
import { PublishHttp, type HttpAnswer, type HttpRequest } from './http.js';
import { PublishConfigError, PublishError, type Publisher } from './publisher.js';
import { adapterOf } from '../../scrapers/identify.js';
import { xenforoApiPublisher } from './xenforo-api.js';

export interface PublisherForDeps {
  http: PublishHttp;
  /** Opens the sealed credentials; null: none can be used (copy still works). */
  box: SecretBox | null;
  /** Learns the decrypted secrets, so that they never reach a log line. */
  scrubber?: SecretScrubber;
  /** The browser fallback of the `form` method (Chromium path, time limits); tests shorten them. */
  browser?: Omit<BrowserPostOptions, 'threadUrl' | 'engine' | 'jar' | 'http'>;
}

/**
 * The publisher a game's settings ask for (`settings.publish`), with its credentials
 * decrypted for this use only. No setting: copy. `engine` is the game's engine, or the
 * one its latest tally found when the game was added without one. `form` falls back to
 * Chromium only when the reply form cannot be posted without JavaScript (formOrBrowserPublisher).
 */
export function publisherFor(game: Game, engine: EngineId | null, deps: PublisherForDeps): Publisher {
  const publish = game.settings.publish;
  if (publish === undefined || publish.method === 'copy')
    return copyPublisher({ threadUrl: game.threadUrl, engine, http: deps.http });
  if (!deps.box) throw new MissingSecretKeyError(`publishing with ${publish.method}`);
  const aad = publishAad(game.threadUrl, publish.method);
  switch (publish.method) {
    case 'discourse-api': {
      const apiKey = deps.box.open(publish.apiKey, aad);
      deps.scrubber?.add(apiKey);
      return discourseApiPublisher({
        threadUrl: game.threadUrl,
        apiKey,
        apiUsername: publish.apiUsername,
        http: deps.http,
      });
    }
    case 'xenforo-api': {
      const apiKey = deps.box.open(publish.apiKey, aad);
      deps.scrubber?.add(apiKey);
      return xenforoApiPublisher({ threadUrl: game.threadUrl, apiKey, apiUser: publish.apiUser, http: deps.http });
    }
    case 'form': {
      if (!engine)
        throw new PublishConfigError(`game ${game.id}: the forum engine is not known yet; poll the thread first`);
      const jar = jarFromJson(deps.box.open(publish.jar, aad));
      for (const cookie of jar.serializeSync()?.cookies ?? []) deps.scrubber?.add(String(cookie.value ?? ''));
      return formOrBrowserPublisher({
        threadUrl: game.threadUrl,
        engine,
        jar,
        http: deps.http,
        browser: deps.browser ?? {},
      });
    }
  }
}

/**
 * The `form` method (a stored login): the reply form is posted over plain HTTP; Chromium is
 * the last resort, used for one reason only: **the form publisher read the reply page,
 * sent nothing, and that page's HTML has no reply form but scripts that build it**
 * (`formNeedsJavaScript`: not a login page). That attempt, and every later one of this
 * publisher, goes through the browser (same jar, same marker thread-scan). A login page,
 * a locked thread or a refused post stays the form publisher's answer: a browser would not
 * help. When Chromium is missing or does not start, the attempt fails, `rejected` (nothing
 * was sent), saying to copy the votal instead (BrowserUnavailableError as its cause); an
 * engine without browser facts never switches.
 */
function formOrBrowserPublisher(opts: {
  threadUrl: string;
  engine: EngineId;
  jar: CookieJar;
  http: PublishHttp;
  browser: Omit<BrowserPostOptions, 'threadUrl' | 'engine' | 'jar' | 'http'>;
}): Publisher {
  const facts = formFactsFor(opts.engine);
  const tap = new TappedHttp(opts.http);
  const form = formPostPublisher({ threadUrl: opts.threadUrl, engine: opts.engine, jar: opts.jar, http: tap });
  if (!facts || !browserFactsFor(opts.engine)) return form;
  const pageUrl = replyUrl(facts, adapterOf(opts.engine).threadRef(new URL(opts.threadUrl)));
  const browser = browserPublisher({
    ...opts.browser,
    threadUrl: opts.threadUrl,
    engine: opts.engine,
    jar: opts.jar,
    http: opts.http,
  });
  let needsBrowser = false;

  const viaBrowser = async (message: string) => {
    try {
      return await browser.post(message);
    } catch (error) {
      if (!(error instanceof BrowserUnavailableError)) throw error;
      throw new PublishError(
        `the reply form needs JavaScript and no browser can be used here (${error.message}); copy the votal and paste it into the thread`,
        'rejected',
        false,
        null,
        { cause: error },
      );
    }
  };

  return {
    kind: 'form',
    find: (marker) => form.find(marker),
    async post(message) {
      if (needsBrowser) return viaBrowser(message);
      tap.reset();
      try {
        return await form.post(message);
      } catch (error) {
        const page = tap.answerFor(pageUrl);
        const scripted =
          error instanceof PublishError &&
          error.outcome === 'rejected' &&
          !tap.posted &&
          page !== null &&
          page.status === 200 &&
          formNeedsJavaScript(page.text, facts);
        if (!scripted) throw error;
        needsBrowser = true;
        return viaBrowser(message);
      }
    },
  };
}

/** The form publisher's requests, passed through; remembers the answers and whether a POST went out. */
class TappedHttp extends PublishHttp {
  posted = false;
  private answers = new Map<string, HttpAnswer>();

  constructor(private readonly inner: PublishHttp) {
    super({ timeoutMs: inner.timeoutMs });
  }

  reset(): void {
    this.posted = false;
    this.answers.clear();
  }

  answerFor(url: string): HttpAnswer | null {
    return this.answers.get(url) ?? null;
  }

  override async send(url: string, request: HttpRequest): Promise<HttpAnswer> {
    if (request.method === 'POST') this.posted = true;
    const answer = await this.inner.send(url, request);
    if (request.method !== 'POST') this.answers.set(url, answer);
    return answer;
  }
}
