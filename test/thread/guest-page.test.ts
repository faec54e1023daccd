import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { showsPosts } from '../../scrapers/page-checks.js';
import { parseHtml } from '../../scrapers/dom.js';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { LayoutError, LoginRequiredError } from '../../src/fetch/errors.js';
import { whyNoPosts } from '../../src/thread/empty-page.js';
import { identifyEngine } from '../../src/thread/identify-engine.js';
import { readThread } from '../../src/thread/read-thread.js';
import { quickFetcher, root } from './support.js';

/**
 * A login wall is a page that asks for a login and shows no posts. A guest page carries a
 * quick-login box (a password field) in its header beside the posts: it is read, or, when
 * its layout is not understood, reported as such, never as "Login required".
 * The real pages are ../shared/forum-samples (SOURCES.md).
 */
const samples = resolve(root, '../shared/forum-samples');
const SMF = resolve(samples, 'smf/geekhack-smf2015-topic92066.html');
const haveSamples = existsSync(SMF);
if (!haveSamples)
  console.warn(`[guest-page] real forum samples not found at ${samples}: skipping the real-page login-wall tests`);
const read = (file: string, encoding: BufferEncoding = 'utf8'): string =>
  readFileSync(resolve(samples, file), encoding);

/** Real guest pages with a password field in their header, and their post counts. */
const guestPages: [file: string, encoding: BufferEncoding][] = [
  ['smf/geekhack-smf2015-topic92066.html', 'latin1'],
  ['vbulletin4/nettally-vBulletin4.html', 'utf8'],
  ['invision/utorrent-topic86747.html', 'utf8'],
  ['invision/neowin-topic1393830.html', 'utf8'],
];

/**
 * The same SMF 2.0 board when a guest may not read the topic: the header (with its quick
 * login box) and, instead of the posts, SMF 2.0's "kick guest" login form
 * (Login.template.php, template_kick_guest: form#frmLogin with user, password, session length).
 */
function smfLoginWall(guestPage: string): string {
  const head = guestPage.slice(0, guestPage.indexOf('<div id="main_content_section">'));
  const foot = guestPage.slice(guestPage.indexOf('<div id="footer_section">'));
  return `${head}<div id="main_content_section">
	<form action="https://geekhack.org/index.php?action=login2" method="post" accept-charset="ISO-8859-1" name="frmLogin" id="frmLogin">
		<div class="tborder login">
			<div class="cat_bar"><h3 class="catbg">Warning!</h3></div>
			<p class="information centertext">Only registered members are allowed to access this section.<br />Please login below or <a href="https://geekhack.org/index.php?action=register">register an account</a> with geekhack.</p>
			<div class="roundframe"><dl>
				<dt>Username:</dt><dd><input type="text" name="user" size="20" class="input_text" /></dd>
				<dt>Password:</dt><dd><input type="password" name="passwrd" size="20" class="input_password" /></dd>
			</dl><p class="centertext"><input type="submit" value="Login" class="button_submit" /></p></div>
		</div>
	</form>
</div></div></div>
${foot}`;
}

describe.skipIf(!haveSamples)('login walls told apart from guest pages', () => {
  let forum: FakeForum;
  beforeEach(async () => {
    forum = await startFakeForum();
  });
  afterEach(async () => {
    await forum.close();
  });

  it.each(guestPages)(
    'a real guest page with a header login box shows posts and is no login wall (%s)',
    (file, encoding) => {
      const html = read(file, encoding);
      expect(html).toMatch(/type=["']password["']/);
      expect(showsPosts(parseHtml(html))).toBe(true);
      expect(whyNoPosts(html)).toBeNull();
    },
  );

  it('a real SMF guest page is read through the fetcher, its header login box notwithstanding', async () => {
    forum.route('/index.php?topic=92066.0', { body: readFileSync(SMF), contentType: 'text/html; charset=ISO-8859-1' });
    const thread = await readThread(forum.url('/index.php?topic=92066.0'), {
      source: quickFetcher(),
      profile: DEFAULT_PROFILE,
      lastPage: 1,
    });
    expect(thread.posts).toHaveLength(50);
    expect(thread.posts[0]).toMatchObject({ author: 'xondat', number: 1 });
  });

  it('a guest page whose layout no adapter knows is a layout error naming the URL, not "Login required"', async () => {
    // A theme that renames every container: the posts are still there (ids msg_N), the password field too.
    const html = read('smf/geekhack-smf2015-topic92066.html', 'latin1')
      .replaceAll('post_wrapper', 'post-card')
      .replaceAll('quickModForm', 'modForm');
    forum.route('/community/92066', { body: html });
    const url = forum.url('/community/92066');
    const error = await identifyEngine(new URL(url), quickFetcher(), undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LayoutError);
    expect(error).not.toBeInstanceOf(LoginRequiredError);
    expect((error as Error).message).toContain(url);
    const viaSmf = await readThread(url, { source: quickFetcher(), profile: DEFAULT_PROFILE, engine: 'smf' }).catch(
      (e: unknown) => e,
    );
    expect(viaSmf).toBeInstanceOf(LayoutError);
    expect((viaSmf as Error).message).toMatch(/no post containers/);
  });

  it("a real login wall (no posts, a login form) is still refused with today's message", async () => {
    const wall = smfLoginWall(read('smf/geekhack-smf2015-topic92066.html', 'latin1'));
    expect(whyNoPosts(wall)).toBe('login-wall');
    forum.route('/index.php?topic=92066.0', { body: wall });
    const error = await readThread(forum.url('/index.php?topic=92066.0'), {
      source: quickFetcher(),
      profile: DEFAULT_PROFILE,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoginRequiredError);
    expect((error as Error).message).toMatch(
      /^Login required: the forum answered with a login form instead of the thread/,
    );
    forum.route('/community/92066', { body: wall });
    await expect(identifyEngine(new URL(forum.url('/community/92066')), quickFetcher(), undefined)).rejects.toThrow(
      LoginRequiredError,
    );
  });

  it('"registration required to see attachments" inside a post is no wall: the post is read with the notice as its text', async () => {
    const notice =
      '<div class="attachments">You are not allowed to view attachments. Please <a href="https://geekhack.org/index.php?action=register">register</a> to see them.</div>';
    const html = read('smf/geekhack-smf2015-topic92066.html', 'latin1').replace(
      '<div class="inner" id="msg_2505877">',
      `<div class="inner" id="msg_2505877">${notice}`,
    );
    forum.route('/index.php?topic=92066.0', { body: html });
    const thread = await readThread(forum.url('/index.php?topic=92066.0'), {
      source: quickFetcher(),
      profile: DEFAULT_PROFILE,
      lastPage: 1,
    });
    expect(thread.posts).toHaveLength(50);
    expect(JSON.stringify(thread.posts[2]!.body)).toContain('You are not allowed to view attachments');
  });
});
