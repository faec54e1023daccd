import type { PostEvent } from '../model/event.js';
import type { Post } from '../model/post.js';
import type { Roster } from '../model/roster.js';
import type { Ruleset } from '../rules/ruleset.js';
import { readPost } from './read-post.js';

/** Every post read the way a moderator reads it, as the tally's post events. */
export function postEvents(posts: readonly Post[], roster: Roster, ruleset: Ruleset): PostEvent[] {
  return posts.map((p) => ({
    kind: 'post',
    post: p.number,
    author: p.author,
    time: p.postedAt,
    permalink: p.permalink,
    reading: readPost({ body: p.body, edit: p.edit }, roster, ruleset),
  }));
}
