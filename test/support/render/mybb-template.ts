import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
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
import { body as mycode } from './mybb.js';

/**
 * MyBB 1.8.37's own default-theme templates (showthread, postbit, postbit_classic,
 * postbit_posturl, postbit_editedby, postbit_author_user, postbit_avatar, multipage*;
 * ../shared/forum-samples/templates/mybb1.8.37-showthread-postbit.txt, copied from
 * mybb/mybb's install/resources/mybb_theme.xml) filled with a game script, the way
 * MyBB's `eval("\$x = \"".$templates->get('x')."\";")` does: every `{$var}`,
 * `{$a['k']}` and `{$lang->k}` replaced, nothing else touched, so the white space and
 * attribute quoting are the templates' own. The values MyBB's PHP computes (profile
 * links, my_date, the MyCode parser) are written the way MyBB 1.8 writes them. An
 * unknown variable is an error, not an empty string, so nothing is filled by accident.
 * `header`/`footer` are not among the saved templates: a guest header with the quick
 * login modal (a password field) and a closing footer stand in for them.
 */
const MYBB_TEMPLATES = 'templates/mybb1.8.37-showthread-postbit.txt';

export interface MybbTemplateOptions {
  /** Search-engine-friendly URLs (`thread-4242.html`, `post-9002.html`, `user-11.html`). */
  seo: boolean;
  /** The classic (vertical) postbit instead of the default horizontal one. */
  classic: boolean;
}

type Vars = { [k: string]: string | number | Vars };

/** The templates by name, each exactly as saved (the blank line that separates them dropped). */
function mybbTemplates(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = text.split(/^===== template: (\w+) \(version \d+\) =====\n/m);
  for (let i = 1; i < parts.length; i += 2) out.set(parts[i]!, parts[i + 1]!.replace(/\n\n$/, ''));
  return out;
}

export function loadMybbTemplates(samples: string): Map<string, string> | null {
  const file = resolve(samples, MYBB_TEMPLATES);
  return existsSync(file) ? mybbTemplates(readFileSync(file, 'utf8')) : null;
}

/** `{$name}`, `{$name['key']}`, `{$name->key}`, `{$name->key['k2']}`: PHP's complex interpolation. */
function fill(template: string, vars: Vars, name: string): string {
  return template.replace(/\{\$(\w+)((?:\['\w+'\]|->\w+)*)\}/g, (whole, root: string, path: string) => {
    let v: string | number | Vars | undefined = vars[root];
    for (const m of path.matchAll(/\['(\w+)'\]|->(\w+)/g)) v = typeof v === 'object' ? v[m[1] ?? m[2]!] : undefined;
    if (v === undefined || typeof v === 'object') throw new Error(`template ${name}: no value for ${whole}`);
    return String(v);
  });
}

const LANG: Vars = {
  quickdelete_confirm: 'Are you sure you want to delete this post?',
  quickrestore_confirm: 'Are you sure you want to restore this post?',
  save_changes: 'Save Changes',
  cancel_edit: 'Cancel Edit',
  quick_edit_update_error: 'There was an error editing your reply:',
  quick_reply_post_error: 'There was an error posting your reply:',
  quick_delete_error: 'There was an error deleting your reply:',
  quick_delete_success: 'The post was deleted successfully.',
  quick_delete_thread_success: 'The thread was deleted successfully.',
  quick_restore_error: 'There was an error restoring your reply:',
  quick_restore_success: 'The post was restored successfully.',
  postbit_editreason: 'Edit Reason',
  post_deleted_error: 'You can not perform this action to a deleted post.',
  soft_delete_thread: 'Soft Delete Thread',
  restore_thread: 'Restore Thread',
  thread_toggle: 'Threaded Mode',
  next_oldest: 'Next Oldest',
  next_newest: 'Next Newest',
  postbit_posts: 'Posts:',
  postbit_threads: 'Threads:',
  postbit_joined: 'Joined:',
  next: 'Next',
  previous: 'Previous',
};

/** MyBB's default date and time formats (m-d-Y, h:i A), as my_date writes a date older than yesterday. */
function myDate(iso: string): string {
  const w = wallClock(iso, 'UTC');
  const [h, ampm] = twelveHour(w.h);
  return `${pad2(w.mo)}-${pad2(w.d)}-${w.y}, ${pad2(h)}:${pad2(w.mi)} ${ampm.toUpperCase()}`;
}

export function renderMybbTemplates(
  templates: Map<string, string>,
  script: GameScript,
  opts: MybbTemplateOptions,
): RenderedPage[] {
  const t = (name: string, vars: Vars): string => {
    const text = templates.get(name);
    if (text === undefined) throw new Error(`no template ${name}`);
    return fill(text, { lang: LANG, ...vars }, name);
  };
  const tid = script.thread.id;
  const threadLink = (page: number): string =>
    opts.seo
      ? `thread-${tid}${page > 1 ? `-page-${page}` : ''}.html`
      : `showthread.php?tid=${tid}${page > 1 ? `&amp;page=${page}` : ''}`;
  const pagePath = (page: number): string => `/${threadLink(page).replace(/&amp;/g, '&')}`;
  const postLink = (pid: number): string =>
    opts.seo ? `post-${pid}.html` : `showthread.php?tid=${tid}&amp;pid=${pid}`;
  const profileLink = (uid: number): string =>
    opts.seo ? `user-${uid}.html` : `member.php?action=profile&amp;uid=${uid}`;
  /** build_profile_link: a member's name links to their profile; a guest's is plain text. */
  const nameLink = (name: string): string => {
    const uid = userIdOf(script, name);
    return uid === null ? html(name) : `<a href="${profileLink(uid)}">${html(name)}</a>`;
  };

  const pages = pagesOf(script);
  return pages.map((posts, i) => {
    const page = i + 1;
    const multipage =
      pages.length < 2
        ? ''
        : t('multipage', {
            multipage_pages: `Pages (${pages.length}):`,
            prevpage: page > 1 ? t('multipage_prevpage', { page_url: threadLink(page - 1) }) : '',
            start: '',
            mppage: pages
              .map((_, j) =>
                t(j + 1 === page ? 'multipage_page_current' : 'multipage_page', {
                  i: j + 1,
                  page_url: threadLink(j + 1),
                }),
              )
              .join(''),
            end: '',
            nextpage: page < pages.length ? t('multipage_nextpage', { page_url: threadLink(page + 1) }) : '',
            jumptopage: '',
          });
    const postbits = posts.map((p) => postbit(p)).join('');
    const body = t('showthread', {
      thread: { subject: html(script.thread.title), displayprefix: '' },
      headerinclude: '<link type="text/css" rel="stylesheet" href="cache/themes/theme1/global.css?t=1700000000" />',
      mybb: { settings: { alloweditreason: 1 }, asset_url: 'https://forum.example.com' },
      header: header(script.thread.title),
      footer: '</div>\n</div>\n<div id="footer">Powered By <a href="https://mybb.com">MyBB</a>.</div>\n</div>',
      threadnotesbox: '',
      pollbox: '',
      multipage,
      newreply: '',
      ratethread: '',
      theme: { borderwidth: 0, tablespace: 5 },
      thread_toggle: 'threaded',
      tid,
      pid: posts[0]!.id,
      threadnoteslink: '',
      posts: postbits,
      search_thread: '',
      next_oldest_link: `showthread.php?tid=${tid}&amp;action=nextoldest`,
      next_newest_link: `showthread.php?tid=${tid}&amp;action=nextnewest`,
      quickreply: '',
      threadexbox: '',
      similarthreads: '',
      printthread: '',
      sendthread: '',
      addremovesubscription: '',
      addpoll: '',
      moderationoptions: '',
      forumjump: '',
      usersbrowsing: '',
      thread_deleted: 0,
    });
    return { page, path: pagePath(page), file: `page-${page}.html`, body };
  });

  function postbit(p: ScriptPost): string {
    const uid = userIdOf(script, p.author);
    const post: Vars = {
      pid: p.id,
      useravatar:
        uid === null
          ? ''
          : t('postbit_avatar', {
              post: { profilelink_plain: profileLink(uid) },
              useravatar: { image: 'images/default_avatar.png', width_height: 'width="55" height="55"' },
            }),
      profilelink: nameLink(p.author),
      onlinestatus: uid === null ? '' : `<a href="online.php" title="Offline" class="offline"></a>`,
      usertitle:
        uid === null ? 'Unregistered' : p.author === script.posts[0]!.author ? 'Game Moderator' : 'Junior Member',
      userstars: uid === null ? '' : '<img src="images/star.png" border="0" alt="*" />',
      groupimage: '',
      user_details:
        uid === null
          ? '&nbsp;'
          : t('postbit_author_user', {
              post: {
                postnum: 100 + script.posts.filter((q) => q.author === p.author).length,
                threadnum: 2,
                userregdate: 'Jan 2026',
                replink: '',
                profilefield: '',
                warninglevel: '',
              },
            }),
      posturl: t('postbit_posturl', {
        post: {
          postlink: postLink(p.id),
          pid: p.id,
          subject_title: `${p.n === 1 ? '' : 'RE: '}${html(script.thread.title)}`,
          inlinecheck: '',
        },
        post_number: p.n,
      }),
      icon: '',
      postdate: myDate(p.time),
      editedmsg: p.edited
        ? t('postbit_editedby', {
            post: {
              editnote: `This post was last modified: ${myDate(p.edited.time)} by`,
              editedprofilelink: nameLink(p.edited.by),
            },
            editreason: '',
          })
        : '',
      subject_extra: '',
      message: mycode(script, p, p.body),
      attachments: '',
      signature: '',
      iplogged: '',
      poststatus: '',
      input_editreason: '',
      button_email: '',
      button_pm: '',
      button_www: '',
      button_find: '',
      button_rep: '',
      button_edit: '',
      button_quickdelete: '',
      button_quickrestore: '',
      button_quote: '',
      button_multiquote: '',
      button_report: '',
      button_warn: '',
      button_purgespammer: '',
      button_reply_pm: '',
      button_replyall_pm: '',
      button_forward_pm: '',
      button_delete_pm: '',
    };
    return t(opts.classic ? 'postbit_classic' : 'postbit', {
      post,
      ignore_bit: '',
      deleted_bit: '',
      unapproved_shade: '',
      post_visibility: '',
    });
  }
}

/** The guest's header: welcome block and the quick-login modal MyBB hides until clicked. */
function header(title: string): string {
  return `<div id="container">
		<a name="top" id="top"></a>
		<div id="header">
			<div id="panel">
				<div class="upper"><div class="wrapper">
					<span class="welcome">Hello There, Guest! <a href="member.php?action=login" onclick="$('#quick_login').modal({ fadeDuration: 250, keepelement: true, zIndex: (typeof modal_zindex !== 'undefined' ? modal_zindex : 9999) }); return false;" class="login">Login</a> <a href="member.php?action=register" class="register">Register</a></span>
				</div></div>
				<div class="modal" id="quick_login" style="display: none;">
					<form method="post" action="member.php">
						<input name="action" type="hidden" value="do_login" />
						<input name="url" type="hidden" value="" />
						<input name="quick_login" type="hidden" value="1" />
						<input name="my_post_key" type="hidden" value="0123456789abcdef0123456789abcdef" />
						<table width="100%" cellspacing="0" cellpadding="5" border="0" class="tborder">
							<tr><td class="trow1" width="25%"><strong>Username:</strong></td><td class="trow1"><input name="quick_username" id="quick_login_username" type="text" value="" class="textbox initial_focus" /></td></tr>
							<tr><td class="trow2"><strong>Password:</strong></td><td class="trow2"><input name="quick_password" id="quick_login_password" type="password" value="" class="textbox" /></td></tr>
						</table>
					</form>
				</div>
			</div>
		</div>
		<div id="content">
			<div class="wrapper">
<div class="navigation">
<a href="index.php">Votal Test Forum</a> &rsaquo; <a href="forumdisplay.php?fid=2">Mafia Games</a> &rsaquo; <span class="active">${html(title)}</span>
</div>
`;
}
