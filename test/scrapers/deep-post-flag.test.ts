import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, TOO_DEEP } from '../../scrapers/body-builder.js';
import { parseFragment } from '../../scrapers/fragment.js';
import { phpbb } from '../../scrapers/phpbb.js';
import { packageRoot } from '../../src/config/package-root.js';
import { hashBody } from '../../src/model/post.js';
import { Roster } from '../../src/model/roster.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';

/**
 * A post nested deeper than the body builder's cap is the GM's to read (issue #22, 6): a
 * 10,000-deep post was read flat and its vote counted, with nobody told that its markup
 * was hostile. Its words are still kept (test/scrapers/hostile-depth.test.ts); it now goes
 * to the review queue as an unreadable post, and a post inside the cap counts as before.
 */

const ruleset = loadRuleset(`${packageRoot(import.meta.url)}/fixtures/games/standard-ruleset.yaml`);
const roster = Roster.parse(['Alice', 'Frank'].map((name) => ({ name })));
const nested = (depth: number) => `${'<div>'.repeat(depth)}<b>Vote: Frank</b>${'</div>'.repeat(depth)}`;
const reading = (depth: number) => {
  const body = parseFragment(nested(depth), phpbb.descriptor.body, 'https://forum.example/viewtopic.php?t=1');
  const post = {
    id: 'p1',
    number: 5,
    page: 1,
    author: 'Alice',
    authorId: null,
    postedAt: null,
    permalink: 'https://forum.example/viewtopic.php?p=1#p1',
    edit: null,
    bodyHash: hashBody(body),
    body,
  };
  return { body, effect: readPost(post, roster, ruleset).effect };
};

describe('a post nested past the cap', () => {
  it('10,000 levels: flagged for the GM, not counted', () => {
    const { body, effect } = reading(10_000);
    expect(body[0]).toEqual({ t: 'unreadable', reason: TOO_DEEP });
    expect(TOO_DEEP).toContain(`more than ${MAX_DEPTH} levels deep`);
    expect(effect).toEqual({ kind: 'review', target: null, reason: 'unreadable-post' });
  });

  it('inside the cap (150 levels): counted as the vote it is', () => {
    const { body, effect } = reading(150);
    expect(body.some((n) => n.t === 'unreadable')).toBe(false);
    expect(effect).toMatchObject({ kind: 'vote', target: 'Frank' });
  });
});
