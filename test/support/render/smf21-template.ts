import {
  escapeAttr as attr,
  escapeHtml as html,
  pad2,
  pagesOf,
  twelveHour,
  userIdOf,
  wallClock,
  type GameScript,
  type ScriptPost,
} from '../game-script.js';
import type { RenderedPage } from './index.js';
import { body as bbc } from './smf.js';

/**
 * SMF 2.1.4's own topic template (Themes/default/Display.template.php: template_main up
 * to the jump-to box, and template_single_post; ../shared/forum-samples/templates) run by
 * hand for a guest with the default settings: every string the template echoes is copied
 * through `lit()`, in order, with the values SMF computes between them (loadMemberContext's
 * profile link, timeformat's "%B %d, %Y, %I:%M:%S %p", constructPageIndex, the BBC parser).
 * A test checks that every `lit()` string is in the template file verbatim, so the white
 * space and quoting are the template's own. Branches a guest never sees (moderation, polls,
 * likes buttons, quick reply, ignored users, attachments) are left out; the surrounding
 * index template (html, head, header) is a plain stand-in.
 *
 * `sef`: "search engine friendly URLs" (queryless_urls), which SMF's output buffer applies to
 * topic and board links only: `index.php/topic,4242.8.html`; message and profile links keep
 * their query strings.
 */
export const SMF21_TEMPLATE = 'templates/smf2.1.4-Display.template.php';

export interface Smf21Options {
  sef: boolean;
}

/** Every literal the renderer echoed, to check against the template file. */
export const smf21Literals = new Set<string>();
const lit = (s: string): string => {
  smf21Literals.add(s);
  return s;
};

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SCRIPT = 'https://forum.example.com/index.php';

/** The default time_format, "%B %d, %Y, %I:%M:%S %p", in the board's zone (UTC). */
function timeformat(iso: string): string {
  const w = wallClock(iso, 'UTC');
  const [h, ampm] = twelveHour(w.h);
  return `${MONTHS[w.mo - 1]} ${pad2(w.d)}, ${w.y}, ${pad2(h)}:${pad2(w.mi)}:${pad2(w.s)} ${ampm.toUpperCase()}`;
}

export function renderSmf21Template(script: GameScript, opts: Smf21Options): RenderedPage[] {
  const tid = script.thread.id;
  const perPage = script.thread.postsPerPage;
  const topicUrl = (start: number): string =>
    opts.sef ? `${SCRIPT}/topic,${tid}.${start}.html` : `${SCRIPT}?topic=${tid}.${start}`;
  const pages = pagesOf(script);
  return pages.map((posts, i) => {
    const page = i + 1;
    const start = i * perPage;
    // constructPageIndex with the default theme's page_index settings.
    let index = '<span class="pages">Pages</span>';
    if (page > 1)
      index += `<a class="nav_page" href="${topicUrl(start - perPage)}"><span class="main_icons previous_page"></span></a> `;
    for (let n = 1; n <= pages.length; n++) {
      index +=
        n === page
          ? `<span class="current_page">${n}</span> `
          : `<a class="nav_page" href="${topicUrl((n - 1) * perPage)}">${n}</a> `;
    }
    if (page < pages.length)
      index += `<a class="nav_page" href="${topicUrl(start + perPage)}"><span class="main_icons next_page"></span></a> `;
    const first = script.posts[0]!;
    const out = [
      lit(`
		<div id="display_head" class="information">
			<h2 class="display_title">
				<span id="top_subject">`),
      html(script.thread.title),
      lit('</span>'),
      '',
      '',
      lit(`
			</h2>
			<p>`),
      'Started by',
      ' ',
      html(first.author),
      ', ',
      timeformat(first.time),
      lit('</p>'),
      lit(`
			<span class="nextlinks floatright">`),
      '',
      lit('</span>'),
      lit(`
		</div><!-- #display_head -->
		`),
      '',
      lit(`
		<div class="pagesection top">
			`),
      '',
      lit(`
			`),
      ' ',
      lit(`
			<div class="pagelinks floatleft">
				<a href="#bot" class="button">`),
      'Go Down',
      lit(`</a>
				`),
      index,
      lit(`
			</div>`),
      lit(`
		</div>`),
      lit(`
		<div id="forumposts">
			<form action="`),
      SCRIPT,
      lit('?action=quickmod2;topic='),
      String(tid),
      lit('.'),
      String(start),
      lit('" method="post" accept-charset="'),
      'UTF-8',
      lit(
        '" name="quickModForm" id="quickModForm" onsubmit="return oQuickModify.bInEditMode ? oQuickModify.modifySave(\'',
      ),
      'a1b2c3d4e5f6',
      lit("', '"),
      'e7f8a9',
      lit('\') : false">'),
      ...posts.map((p) => singlePost(p)),
      lit(`
			</form>
		</div><!-- #forumposts -->`),
      lit(`
		<div class="pagesection">
			`),
      '',
      lit(`
			`),
      ' ',
      lit(`
			<div class="pagelinks floatleft">
				<a href="#main_content_section" class="button" id="bot">`),
      'Go Up',
      lit(`</a>
				`),
      index,
      lit(`
			</div>`),
      lit(`
		</div>`),
      lit(`
		<div id="moderationbuttons">
			`),
      '',
      lit(`
		</div>`),
      lit(`
		<div id="display_jump_to"></div>`),
    ].join('');
    const path = new URL(topicUrl(start)).pathname + new URL(topicUrl(start)).search;
    return { page, path, file: `page-${page}.html`, body: indexTemplate(script.thread.title, topicUrl(start), out) };
  });

  function singlePost(p: ScriptPost): string {
    const uid = userIdOf(script, p.author);
    const counter = p.n - 1;
    const subject = counter === 0 ? html(script.thread.title) : `Re: ${html(script.thread.title)}`;
    const href = `${SCRIPT}?msg=${p.id}`;
    const link =
      uid === null
        ? html(p.author)
        : `<a href="${SCRIPT}?action=profile;u=${uid}" title="View the profile of ${attr(p.author)}">${html(p.author)}</a>`;
    const isGm = p.author === script.posts[0]!.author;
    const parts = [
      lit(`
				<div class="`),
      'windowbg',
      lit('" id="msg'),
      String(p.id),
      lit(`">
					`),
      counter === 0
        ? ''
        : lit(`
					`) + '',
      lit(`
					<div class="post_wrapper">`),
      lit(`
						<div class="poster">`),
      lit(`
							<h4>`),
      uid === null
        ? ''
        : lit(`
								`) +
          '' +
          `<span class="off" title="Offline"></span>` +
          '',
      lit(`
								`),
      link,
      lit(`
							</h4>
							<ul class="user_info">`),
      isGm
        ? lit(`
								<li class="membergroup">`) +
          'Game Master' +
          lit('</li>')
        : '',
      uid === null
        ? ''
        : [
            lit(`
								<li class="icons">`),
            '<img src="https://forum.example.com/Themes/default/images/membericons/icon.png" alt="*">',
            lit('</li>'),
            isGm
              ? ''
              : lit(`
								<li class="postgroup">`) +
                'Newbie' +
                lit('</li>'),
            lit(`
								<li class="postcount">`),
            'Posts',
            ': ',
            String(100 + script.posts.filter((q) => q.author === p.author).length),
            lit('</li>'),
          ].join(''),
      lit(`
								<li class="poster_ip">`),
      'Logged',
      lit('</li>'),
      lit(`
							</ul>
						</div><!-- .poster -->
						<div class="postarea">
							<div class="keyinfo">`),
      lit(`
								<div id="subject_`),
      String(p.id),
      lit('" class="subject_title'),
      ' subject_hidden',
      lit(`">
									`),
      `<a href="${href}" rel="nofollow">${subject}</a>`,
      lit(`
								</div>`),
      lit(`
								`),
      counter ? `<span class="page_number floatright">#${counter}</span>` : '',
      lit(`
								<div class="postinfo">
									<span class="messageicon" `),
      ' style="position: absolute; z-index: -1;"',
      lit(`>
										<img src="`),
      'https://forum.example.com/Themes/default/images/post/xx.png',
      lit('" alt=""'),
      '',
      lit(`>
									</span>
									<a href="`),
      href,
      lit('" rel="nofollow" title="'),
      counter ? `Reply #${counter} - ` : '',
      subject,
      lit('" class="smalltext">'),
      timeformat(p.time),
      lit(`</a>
									<span class="spacer"></span>`),
      lit(`
									<span class="smalltext modified floatright`),
      p.edited ? ' mvisible' : '',
      lit('" id="modified_'),
      String(p.id),
      lit('">'),
      p.edited ? `<span class="lastedit">Last Edit</span>: ${timeformat(p.edited.time)} by ${html(p.edited.by)}` : '',
      lit(`
									</span>
								</div>
								<div id="msg_`),
      String(p.id),
      lit('_quick_mod"'),
      '',
      lit(`></div>
							</div><!-- .keyinfo -->`),
      lit(`
							<div class="post">`),
      lit(`
								<div class="inner" data-msgid="`),
      String(p.id),
      lit('" id="msg_'),
      String(p.id),
      lit('"'),
      '',
      lit(`>
									`),
      bbc(script, p, p.body),
      lit(`
								</div>
							</div><!-- .post -->`),
      lit(`
							<div class="under_message">`),
      lit(`
								<ul class="floatleft">`),
      lit(`
								</ul>`),
      lit(`
							</div><!-- .under_message -->
						</div><!-- .postarea -->
						<div class="moderatorbar">`),
      lit(`
						</div><!-- .moderatorbar -->
					</div><!-- .post_wrapper -->
				</div><!-- $message[css_class] -->
				<hr class="post_separator">`),
    ];
    return parts.join('');
  }
}

/** A plain stand-in for index.template.php around the topic (not among the saved templates). */
function indexTemplate(title: string, canonical: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en-US">
<head>
	<meta charset="UTF-8">
	<title>${html(title)}</title>
	<link rel="canonical" href="${attr(canonical)}">
	<script>
		var smf_scripturl = "${SCRIPT}";
	</script>
</head>
<body id="chrome" class="action_display board_2">
<div id="footerfix">
	<div id="top_section">
		<div class="inner_wrap">
			<ul class="floatleft welcome">
				<li>Welcome to <strong>Votal Test Forum</strong>. Please <a href="${SCRIPT}?action=login" onclick="return reqOverlayDiv(this.href, 'Log in', 'login');">log in</a>.</li>
			</ul>
		</div>
	</div>
	<div id="wrapper">
		<div id="content_section">
			<div id="main_content_section">${content}
			</div><!-- #main_content_section -->
		</div><!-- #content_section -->
	</div><!-- #wrapper -->
</div><!-- #footerfix -->
</body>
</html>
`;
}
