import { describe, expect, it } from 'vitest';
import { phpbb } from '../../scrapers/phpbb.js';
import { DEFAULT_PROFILE } from '../../scrapers/site-profile.js';
import { vbulletin4 } from '../../scrapers/vbulletin4.js';

/**
 * Post containers are found by what makes a post (the post id, an author, a body), not by
 * one class on one element; ad slots drawn in a post's markup are not posts. The shapes are
 * those of the Harvest gold pages named in each case (../shared/forum-samples/harvest),
 * cut down to one or two posts.
 */
const ctx = (url: string) => ({ url, profile: DEFAULT_PROFILE, now: '2020-06-15T12:00:00Z' });
const page = (body: string) => `<html><head><title>t</title></head><body>${body}</body></html>`;

const phpbbPost = (id: number, name: string, when: string, says: string) =>
  `<div class="postbody"><p class="author"><a href="./viewtopic.php?p=${id}#p${id}">#</a> by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=${id % 97}" class="username">${name}</a></strong> &raquo; ${when}</p><div class="content">${says}</div></div>`;

describe('phpBB post containers whatever the theme', () => {
  it.each([
    [
      'prosilver: the id on div.post',
      (id: number, post: string) => `<div id="p${id}" class="post bg1"><div class="inner">${post}</div></div>`,
    ],
    [
      'airliners.net: the id on an inner a.st-anchor, the box is the div.post around it',
      (id: number, post: string) =>
        `<div class="post has-profile"><a class="st-anchor" id="p${id}">&nbsp;</a><div class="inner">${post}</div></div>`,
    ],
    [
      'ebaumsworld.com: the id on a div.clearfix, the author line a div.timepost',
      (id: number, post: string) =>
        `<div id="p${id}" class="clearfix">${post.replace('<p class="author">', '<div class="pull-left timepost">').replace('</p>', '</div>')}</div>`,
    ],
  ])('%s', (_theme, wrap) => {
    const html = page(
      `<div id="page-body">${wrap(101, phpbbPost(101, 'Alice', 'Sun Dec 15, 2019 4:58 pm', 'Vote: Bob'))}${wrap(102, phpbbPost(102, 'Bob', 'Sat Jan 18, 2020 2:56 pm', 'Vote: Alice'))}</div>`,
    );
    const read = phpbb.parsePage(html, ctx('https://forum.example.org/viewtopic.php?t=7'));
    expect(read.posts.map((p) => [p.id, p.author, p.postedAt])).toEqual([
      ['101', 'Alice', '2019-12-15T16:58:00.000Z'],
      ['102', 'Bob', '2020-01-18T14:56:00.000Z'],
    ]);
  });
});

describe('ad slots in a post’s markup are not posts', () => {
  // forums.futura-sciences.com (vBulletin 4): the "Publicité" slot copies the post before it.
  const vbPost = (id: number, n: number | null, name: string, when: string, says: string) =>
    `<li class="postbitlegacy postcontainer" id="post_${id}"><div class="posthead"><span class="postdate"><span class="date">${when}</span></span>${n === null ? '' : `<span class="nodecontrols">#${n}</span>`}</div><div class="userinfo"><div class="username_container"><span class="username">${name}</span></div></div><div class="postbody"><div class="content"><div id="post_message_${id}"><blockquote class="postcontent restore">${says}</blockquote></div></div></div></li>`;

  it.each([
    [
      'after the post it copies',
      [
        vbPost(11, 1, 'Futura', '29/07/2004, 19h46', 'Bonjour'),
        vbPost(11, null, 'Publicité', "Aujourd'hui", '<div style="display:none" class="Content_1"></div>'),
      ],
    ],
    [
      'before the post it copies',
      [
        vbPost(11, null, 'Publicité', "Aujourd'hui", '<div style="display:none"></div>'),
        vbPost(11, 1, 'Futura', '29/07/2004, 19h46', 'Bonjour'),
      ],
    ],
  ])('a slot drawn %s is dropped, the post kept', (_where, posts) => {
    const html = page(`<ol id="posts">${posts.join('')}${vbPost(12, 2, 'Yoyo', '04/02/2005, 12h25', 'Salut')}</ol>`);
    const read = vbulletin4.parsePage(html, ctx('https://forums.example.org/showthread.php?t=5'));
    expect(read.posts.map((p) => [p.id, p.number, p.author, p.postedAt])).toEqual([
      ['11', 1, 'Futura', '2004-07-29T19:46:00.000Z'],
      ['12', 2, 'Yoyo', '2005-02-04T12:25:00.000Z'],
    ]);
  });
});
