import type { EngineId } from '../../src/model/engine.js';
import type { FakeForum, FakeRequest, FakeResponse } from '../../src/fake-forum/server.js';
import {
  ownLayoutPage,
  ownLayoutPages,
  ownLayoutPath,
  type OwnLayoutName,
  type OwnLayoutThread,
} from '../../src/fake-forum/own-layout.js';
import type { GameScript, ScriptNode, ScriptPost } from '../support/game-script.js';
import { rendererFor } from '../support/render/index.js';

/**
 * A thread on the fake forum that changes while a test runs: posts are added, edited and
 * deleted, and the engine's reply endpoints (XenForo REST API, Discourse API, the reply
 * forms of XenForo 2 and phpBB) add the reply to the thread, so it appears on the last
 * page exactly as a real forum would show it. Every reply received is kept in `replies`.
 *
 * `replyDelayMs`: the reply endpoint records the post first and answers this much later,
 * as a forum whose answer is lost or late after it saved the post.
 */

export interface Reply {
  via: 'xenforo-api' | 'discourse-api' | 'form';
  message: string;
  postId: number;
  at: number;
}

export interface FakeThreadOptions {
  engine: EngineId;
  title?: string;
  threadId?: number;
  slug?: string;
  postsPerPage?: number;
  /** Users and their forum ids (every author needs one). The first is the GM. */
  users?: Record<string, number>;
  /** Board path prefix (several threads on one forum). */
  prefix?: string;
}

export interface NewPost {
  author: string;
  /** Plain text (lines become breaks; `[b]..[/b]` and other BBCode become markup) or body ops. */
  body: string | ScriptNode[];
  edited?: { by: string } | null;
}

const BASE_TIME = Date.UTC(2026, 2, 2, 18, 0, 0);

export class FakeThread {
  readonly script: GameScript;
  readonly replies: Reply[] = [];
  replyDelayMs = 0;
  /** While set, the XenForo API's reply endpoint waits for it before taking the post (a slow forum). */
  replyGate: Promise<void> | null = null;
  /** Reply requests received by the XenForo API endpoint, taken or not (yet). */
  replyRequests = 0;
  /** Raw source of each post (what an API returns as `message` / `raw`). */
  readonly raw = new Map<number, string>();
  private nextId: number;
  private routes: string[] = [];
  private clock = BASE_TIME;
  private xfApiKey: string | null = null;
  /**
   * The forum's theme: its engine's own markup, or a layout no adapter knows
   * (src/fake-forum/own-layout.ts), as after a redesign that moved the engine's landmarks.
   * Set it, then `publish()`: the thread's pages (same posts, same addresses) are drawn anew.
   */
  layout: 'engine' | OwnLayoutName = 'engine';
  /** The last "#N" given: deleted posts leave gaps, numbers are never reused. */
  private lastN = 0;

  constructor(
    readonly forum: FakeForum,
    readonly options: FakeThreadOptions,
  ) {
    const users = options.users ?? { Moderator: 1, Alice: 11, Bob: 12, Carol: 13, Dave: 14, Eve: 15 };
    this.script = {
      file: '<fake thread>',
      ruleset: 'plurality',
      players: Object.keys(users).slice(1),
      thread: {
        title: options.title ?? 'Fake Game - Day 1',
        id: options.threadId ?? 4242,
        slug: options.slug ?? 'fake-game',
        postsPerPage: options.postsPerPage ?? 5,
        forumUserIds: { ...users },
      },
      posts: [],
    };
    this.nextId = this.script.thread.id * 10 + 1;
  }

  get engine(): EngineId {
    return this.options.engine;
  }

  get prefix(): string {
    return this.options.prefix ?? '';
  }

  /** The thread's page-1 URL (what the GM pastes). */
  get url(): string {
    return this.forum.url(this.prefix + rendererFor(this.engine).threadPath(this.script));
  }

  get gm(): string {
    return Object.keys(this.script.thread.forumUserIds)[0]!;
  }

  get posts(): readonly ScriptPost[] {
    return this.script.posts;
  }

  /** Adds a post at the end and republishes the pages. */
  add(post: NewPost): ScriptPost {
    const added = this.push(post.author, toNodes(post.body), typeof post.body === 'string' ? post.body : null);
    this.publish();
    return added;
  }

  /** Replaces post `n`'s body; `marked: false` is an edit the forum does not show (no "last edited"). */
  edit(n: number, body: string | ScriptNode[], opts: { marked?: boolean } = {}): void {
    const post = this.script.posts.find((p) => p.n === n);
    if (!post) throw new Error(`no post ${n}`);
    post.body = toNodes(body);
    if (typeof body === 'string') this.raw.set(post.id, body);
    this.clock += 60_000;
    post.edited = opts.marked === false ? null : { time: new Date(this.clock).toISOString(), by: post.author };
    this.publish();
  }

  /**
   * Removes post number `n` as a moderator's deletion shows to guests: the post is gone,
   * the others keep their numbers (a gap in the "#N" sequence), later posts move up a page.
   */
  delete(n: number): void {
    const index = this.script.posts.findIndex((p) => p.n === n);
    if (index < 0) throw new Error(`no post ${n}`);
    this.script.posts.splice(index, 1);
    this.publish();
  }

  /** Serves the thread's current pages (and, for Discourse, its JSON documents). */
  publish(): void {
    for (const path of this.routes) this.forum.remove(path);
    this.routes = [];
    if (this.script.posts.length === 0) return;
    if (this.layout !== 'engine') {
      this.publishOwnLayout(this.layout);
      return;
    }
    const pages = rendererFor(this.engine).render(this.script);
    for (const page of pages) {
      const contentType = page.path.includes('.json') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8';
      this.serve(page.path, { body: page.body, contentType });
    }
    if (this.engine === 'discourse') this.serveDiscourseRaw();
    if (this.engine === 'xenforo2') this.serveXenforoApiPages();
  }

  /**
   * The pages in a layout of the forum's own: the same posts at the engine's page addresses
   * (what Votal stored) and at the layout's own `?page=N` links. Its posts carry the layout's
   * anchors (`reply-1001`...), not the engine's post ids.
   */
  private publishOwnLayout(layout: OwnLayoutName): void {
    const rendered = rendererFor(this.engine).render(this.script);
    const own: OwnLayoutThread = {
      title: this.script.thread.title,
      posts: this.script.posts.map((p) => ({ author: p.author, at: p.time, text: lanternText(p.body) })),
      perPage: this.script.thread.postsPerPage,
      path: rendererFor(this.engine).threadPath(this.script),
      layout,
    };
    for (let n = 1; n <= ownLayoutPages(own); n++) {
      const page = { body: ownLayoutPage(own, n), contentType: 'text/html; charset=utf-8' };
      const paths = new Set([ownLayoutPath(own, n), ...rendered.filter((r) => r.page === n).map((r) => r.path)]);
      for (const path of paths) this.serve(path, page);
    }
  }

  // --------------------------------------------------------------------- reply endpoints

  /** XenForo REST API: `POST /api/posts/` (thread_id, message) with `XF-Api-Key`. */
  enableXenforoApi(opts: { apiKey: string; user: string }): void {
    this.xfApiKey = opts.apiKey;
    this.publish();
    this.forum.route(
      `${this.prefix}/api/posts/`,
      async (req) => {
        this.replyRequests++;
        if (this.replyGate) await this.replyGate;
        if (req.headers['xf-api-key'] !== opts.apiKey)
          return json(401, {
            errors: [{ code: 'api_key_not_found', message: 'API key provided in request was not found.' }],
          });
        const form = new URLSearchParams(req.body);
        if (form.get('thread_id') !== String(this.script.thread.id))
          return json(400, { errors: [{ message: 'thread_id' }] });
        const post = this.reply('xenforo-api', opts.user, form.get('message') ?? '');
        return this.late(
          json(200, {
            success: true,
            post: {
              post_id: post.id,
              thread_id: this.script.thread.id,
              message: this.raw.get(post.id),
              view_url: this.forum.url(`${this.prefix}/posts/${post.id}/`),
            },
          }),
        );
      },
      { method: 'POST', etag: false },
    );
  }

  /** Discourse API: `POST /posts.json` (raw, topic_id) with `Api-Key` and `Api-Username`. */
  enableDiscourseApi(opts: { apiKey: string; apiUsername: string }): void {
    this.forum.route(
      `${this.prefix}/posts.json`,
      (req) => {
        if (req.headers['api-key'] !== opts.apiKey || req.headers['api-username'] !== opts.apiUsername) {
          return json(403, {
            errors: ['You are not permitted to view the requested resource.'],
            error_type: 'invalid_access',
          });
        }
        const body = JSON.parse(req.body) as { raw?: string; topic_id?: number };
        if (body.topic_id !== this.script.thread.id) return json(422, { errors: ['topic_id'] });
        const post = this.reply('discourse-api', opts.apiUsername, body.raw ?? '');
        return this.late(
          json(200, {
            id: post.id,
            post_number: post.n,
            topic_id: this.script.thread.id,
            topic_slug: this.script.thread.slug,
          }),
        );
      },
      { method: 'POST', etag: false },
    );
  }

  /**
   * The engine's reply form (XenForo 2, phpBB) for a logged-in user: the form page needs
   * the session cookie and carries a CSRF token the POST must send back.
   */
  enableReplyForm(opts: { user: string; cookie: string; token?: string }): void {
    const token = opts.token ?? 'csrf-1772470800-5d41402abc';
    const loggedIn = (req: FakeRequest) => (req.headers.cookie ?? '').split(/;\s*/).includes(opts.cookie);
    const { formPath, actionPath, tokenField, page } = this.formShape(token);
    this.forum.route(
      formPath,
      (req) =>
        loggedIn(req)
          ? { body: page }
          : {
              status: 200,
              body: '<html><body><form action="/login"><input type="password" name="password"></form></body></html>',
            },
      { etag: false },
    );
    this.forum.route(
      actionPath,
      (req) => {
        if (!loggedIn(req)) return { status: 403, body: 'You must be logged-in to do that.' };
        const form = new URLSearchParams(req.body);
        if (form.get(tokenField) !== token)
          return { status: 400, body: '<div class="blockMessage blockMessage--error">Security error occurred.</div>' };
        const post = this.reply('form', opts.user, form.get('message') ?? '');
        const location =
          this.engine === 'phpbb'
            ? `${this.prefix}/viewtopic.php?p=${post.id}#p${post.id}`
            : `${this.prefix}/threads/${this.script.thread.slug}.${this.script.thread.id}/post-${post.id}`;
        return this.late({ status: 303, headers: { location }, body: '' });
      },
      { method: 'POST', etag: false },
    );
  }

  /**
   * The same reply form (XenForo 2, phpBB), but built by the page's script: the HTML has
   * only a `<noscript>` notice and an empty editor box; the form (with its CSRF token)
   * appears a moment after load. A plain form POST finds no form; a browser can post it.
   * The answer to the POST is a redirect to the thread's last page (which exists), as a
   * browser would land on.
   */
  enableScriptedReplyForm(opts: { user: string; cookie: string; token?: string }): void {
    const token = opts.token ?? 'csrf-1772470800-5d41402abc';
    const loggedIn = (req: FakeRequest) => (req.headers.cookie ?? '').split(/;\s*/).includes(opts.cookie);
    const { formPath, actionPath, tokenField, page } = this.formShape(token);
    const formHtml = /<form[\s\S]*<\/form>/.exec(page)![0];
    const scripted = `<!DOCTYPE html><html${this.engine === 'xenforo2' ? ' id="XF"' : ''}><body>
<noscript>Please enable JavaScript to reply.</noscript>
<div id="editor-box"></div>
<script>
  setTimeout(function () {
    document.getElementById('editor-box').innerHTML = ${JSON.stringify(formHtml).replace(/</g, '\\u003c')};
  }, 150);
</script>
</body></html>`;
    this.forum.route(
      formPath,
      (req) =>
        loggedIn(req)
          ? { body: scripted }
          : {
              status: 200,
              body: '<html><body><form action="/login"><input type="password" name="password"></form></body></html>',
            },
      { etag: false },
    );
    this.forum.route(
      actionPath,
      (req) => {
        if (!loggedIn(req)) return { status: 403, body: 'You must be logged-in to do that.' };
        const form = new URLSearchParams(req.body);
        if (form.get(tokenField) !== token)
          return { status: 400, body: '<div class="blockMessage blockMessage--error">Security error occurred.</div>' };
        const post = this.reply('form', opts.user, form.get('message') ?? '');
        const last = rendererFor(this.engine).render(this.script).at(-1)!.path;
        return this.late({ status: 303, headers: { location: `${this.prefix}${last}#post-${post.id}` }, body: '' });
      },
      { method: 'POST', etag: false },
    );
  }

  // ----------------------------------------------------------------------------- parts

  private formShape(token: string): { formPath: string; actionPath: string; tokenField: string; page: string } {
    const t = this.script.thread;
    if (this.engine === 'xenforo2') {
      const base = `${this.prefix}/threads/${t.slug}.${t.id}/`;
      return {
        formPath: `${base}reply`,
        actionPath: `${base}add-reply`,
        tokenField: '_xfToken',
        page: `<!DOCTYPE html><html id="XF"><body><form action="${base}add-reply" method="post" class="block" data-xf-init="attachment-manager">
<textarea name="message" class="input"></textarea>
<input type="hidden" name="_xfToken" value="${token}" />
<input type="hidden" name="last_date" value="1772470800" />
<input type="hidden" name="_xfSet[message]" value="1" />
<input type="checkbox" name="watch_thread" value="1" checked="checked" />
<input type="checkbox" name="notify" value="1" />
<button type="submit" class="button--primary button">Post reply</button>
</form></body></html>`,
      };
    }
    if (this.engine === 'phpbb') {
      const formPath = `${this.prefix}/posting.php?mode=reply&t=${t.id}`;
      return {
        formPath,
        actionPath: formPath,
        tokenField: 'form_token',
        page: `<!DOCTYPE html><html><body><form id="postform" method="post" action="./posting.php?mode=reply&amp;t=${t.id}" enctype="multipart/form-data">
<input type="text" name="subject" value="Re: ${t.title}" />
<textarea name="message" rows="15" cols="76"></textarea>
<input type="hidden" name="topic_cur_post_id" value="${this.script.posts.at(-1)?.id ?? 0}" />
<input type="hidden" name="lastclick" value="1772470800" />
<input type="hidden" name="creation_time" value="1772470800" />
<input type="hidden" name="form_token" value="${token}" />
<input type="submit" name="preview" value="Preview" />
<input type="submit" name="post" value="Submit" />
</form></body></html>`,
      };
    }
    throw new Error(`no reply form for ${this.engine} in the fake thread`);
  }

  /** A reply as the forum stores it: at the end of the thread, by `user`. */
  private reply(via: Reply['via'], user: string, message: string): ScriptPost {
    const post = this.push(user, toNodes(message), message);
    this.replies.push({ via, message, postId: post.id, at: Date.now() });
    this.publish();
    return post;
  }

  private push(author: string, body: ScriptNode[], raw: string | null): ScriptPost {
    if (this.script.thread.forumUserIds[author] === undefined) {
      this.script.thread.forumUserIds[author] = 100 + Object.keys(this.script.thread.forumUserIds).length;
    }
    this.clock += 5 * 60_000;
    const post: ScriptPost = {
      n: ++this.lastN,
      id: this.nextId++,
      author,
      time: new Date(this.clock).toISOString(),
      edited: null,
      body: body.length ? body : [{ op: 'text', text: '(empty)' }],
    };
    this.script.posts.push(post);
    this.raw.set(post.id, raw ?? '');
    return post;
  }

  private late(response: FakeResponse): FakeResponse {
    return this.replyDelayMs > 0 ? { ...response, delayMs: this.replyDelayMs } : response;
  }

  private serve(path: string, response: FakeResponse): void {
    this.forum.route(this.prefix + path, response);
    this.routes.push(this.prefix + path);
  }

  /** `/t/{id}/posts.json?post_ids[]=…&include_raw=true` for the last 50 posts (what the Discourse publisher asks). */
  private serveDiscourseRaw(): void {
    const last = this.script.posts.slice(-50);
    const query = last.map((p) => `post_ids[]=${p.id}`).join('&');
    const posts = last.map((p) => ({
      id: p.id,
      post_number: p.n,
      username: p.author,
      raw: this.raw.get(p.id) ?? '',
      cooked: '',
    }));
    this.serve(`/t/${this.script.thread.id}/posts.json?${query}&include_raw=true`, {
      body: JSON.stringify({ post_stream: { posts }, id: this.script.thread.id }),
      contentType: 'application/json; charset=utf-8',
    });
  }

  /** XenForo's `GET /api/threads/{id}/posts?page=N` (20 posts a page, BBCode `message`). */
  private serveXenforoApiPages(): void {
    const per = 20;
    const lastPage = Math.max(1, Math.ceil(this.script.posts.length / per));
    for (let page = 1; page <= lastPage; page++) {
      const posts = this.script.posts.slice((page - 1) * per, page * per).map((p) => ({
        post_id: p.id,
        position: p.n - 1,
        username: p.author,
        message: this.raw.get(p.id) ?? '',
        view_url: this.forum.url(`${this.prefix}/posts/${p.id}/`),
      }));
      const body = JSON.stringify({
        pagination: {
          current_page: page,
          last_page: lastPage,
          per_page: per,
          shown: posts.length,
          total: this.script.posts.length,
        },
        posts,
      });
      const key = this.xfApiKey;
      this.forum.route(
        `${this.prefix}/api/threads/${this.script.thread.id}/posts?page=${page}`,
        (req) =>
          key !== null && req.headers['xf-api-key'] !== key
            ? json(401, {
                errors: [{ code: 'api_key_not_found', message: 'API key provided in request was not found.' }],
              })
            : json(200, JSON.parse(body)),
        { etag: false },
      );
      this.routes.push(`${this.prefix}/api/threads/${this.script.thread.id}/posts?page=${page}`);
    }
  }
}

function json(status: number, body: unknown): FakeResponse {
  return { status, body: JSON.stringify(body), contentType: 'application/json; charset=utf-8' };
}

/** Body ops as the own layout's post text: lines, and `[b]...[/b]` for bold (other marks keep their text). */
function lanternText(nodes: readonly ScriptNode[], bold = false): string {
  return nodes
    .map((n) => {
      if (n.op === 'br') return '\n';
      if (n.op === 'text' || n.op === 'code') return n.text;
      if (n.op === 'bold') return bold ? lanternText(n.children, true) : `[b]${lanternText(n.children, true)}[/b]`;
      if (n.op === 'smilie') return n.alt;
      if (n.op === 'mention') return `@${n.name}`;
      if (n.op === 'image') return '';
      return lanternText(n.children, bold);
    })
    .join('');
}

/**
 * A little BBCode/Markdown source -> body ops, as the forum would render it: lines become
 * breaks; [b] [i] [s] [color=] [url=] [quote=] become markup; other tags keep their text;
 * HTML comments (Markdown) are not shown.
 */
function toNodes(source: string | ScriptNode[]): ScriptNode[] {
  if (typeof source !== 'string') return source;
  const text = source.replace(/<!--[\s\S]*?-->/g, '');
  const root: ScriptNode[] = [];
  const stack: { tag: string; children: ScriptNode[]; node: ScriptNode | null }[] = [
    { tag: '', children: root, node: null },
  ];
  const top = () => stack[stack.length - 1]!;
  const pushText = (s: string) => {
    const lines = s.split('\n');
    lines.forEach((line, i) => {
      if (i > 0) top().children.push({ op: 'br' });
      if (line) top().children.push({ op: 'text', text: line });
    });
  };
  const tagRe = /\[(\/?)([a-z*]+)(?:=([^\]]*))?\]/gi;
  let at = 0;
  for (const m of text.matchAll(tagRe)) {
    pushText(text.slice(at, m.index));
    at = m.index + m[0].length;
    const closing = m[1] === '/';
    const tag = m[2]!.toLowerCase();
    const arg = m[3];
    if (closing) {
      const i = stack.map((s) => s.tag).lastIndexOf(tag);
      if (i > 0) stack.length = i;
      continue;
    }
    let node: ScriptNode | null = null;
    if (tag === 'b') node = { op: 'bold', children: [] };
    else if (tag === 'i') node = { op: 'italic', children: [] };
    else if (tag === 's') node = { op: 'strike', children: [] };
    else if (tag === 'color' && arg) node = { op: 'color', color: arg, children: [] };
    else if (tag === 'url' && arg) node = { op: 'link', href: arg, kind: 'external', children: [] };
    else if (tag === 'quote')
      node = { op: 'quote', author: arg?.replace(/^"|"$/g, '').split(',')[0] ?? null, children: [] };
    if (node && 'children' in node) {
      top().children.push(node);
      stack.push({ tag, children: node.children, node });
    } else if (tag !== '*') {
      stack.push({ tag, children: top().children, node: null }); // unknown tag: its text stays
    }
  }
  pushText(text.slice(at));
  // Empty containers would not render: drop them.
  const prune = (nodes: ScriptNode[]): ScriptNode[] =>
    nodes.flatMap((n): ScriptNode[] =>
      'children' in n ? (n.children.length ? [{ ...n, children: prune(n.children) } as ScriptNode] : []) : [n],
    );
  return prune(root);
}
