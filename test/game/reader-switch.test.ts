import { describe, expect, it } from 'vitest';
import type { Body } from '../../src/model/body.js';
import { hashBody, type Post } from '../../src/model/post.js';
import { asStored, readingOf, type StoredReading } from '../../src/game/reader-switch.js';

/**
 * After the GM switched a game's reader (issue #26), a post the new reader reads is the post
 * the other reader stored: by its id, or by its place and author. Where it reads the same,
 * the stored reading stands (no edit from a reader's drawing); where it reads otherwise, it
 * is an edit under the stored id. Posts are made up here; the whole path (a XenForo 2 thread
 * whose theme changed) is test/app/reader-switch.test.ts.
 */

const SWITCH = '2026-12-01T12:00:00.000Z';
const BEFORE = '2026-12-01T11:00:00.000Z';
const AFTER = '2026-12-01T13:00:00.000Z';

function post(id: string, number: number, author: string, body: Body): Post {
  return {
    id,
    number,
    page: 1,
    author,
    authorId: null,
    postedAt: '2026-12-01T10:00:00.000Z',
    permalink: `https://forum.example/t/1#${id}`,
    edit: null,
    bodyHash: hashBody(body),
    body,
  };
}
const stored = (p: Post, firstSeen = BEFORE, deleted = false): StoredReading => ({ ...p, firstSeen, deleted });

/** XenForo's drawing of "Bob is quiet. <b>Vote: Bob</b>": paragraphs in blocks. */
const adapterBody: Body = [
  { t: 'block', children: [{ t: 'text', text: 'Bob is quiet.' }] },
  { t: 'bold', children: [{ t: 'text', text: 'Vote: Bob' }] },
];
/** The generic reader's drawing of the same post: a line break, no blocks. */
const genericBody: Body = [
  { t: 'text', text: 'Bob is quiet.' },
  { t: 'br' },
  { t: 'bold', children: [{ t: 'text', text: 'Vote: Bob ' }] },
];

describe('a post read by the other reader', () => {
  it('with another id at the same place by the same author is the stored post, its reading kept', () => {
    const was = post('50012', 2, 'Alice', adapterBody);
    const [now] = asStored([{ ...post('1002', 2, 'Alice', genericBody), page: 1 }], [stored(was)], SWITCH);
    expect(now).toEqual(was);
  });

  it('with the stored id reads the same: the stored body stands, not an edit', () => {
    const was = post('50012', 2, 'Alice', adapterBody);
    const [now] = asStored([post('50012', 2, 'Alice', genericBody)], [stored(was)], SWITCH);
    expect(now!.bodyHash).toBe(was.bodyHash);
  });

  it('that reads otherwise (a vote bolded, text changed) is an edit under the stored id', () => {
    const was = post('50012', 2, 'Alice', [{ t: 'text', text: 'Vote: Bob' }]);
    const bolded = post('1002', 2, 'Alice', [{ t: 'bold', children: [{ t: 'text', text: 'Vote: Bob' }] }]);
    const [now] = asStored([bolded], [stored(was)], SWITCH);
    expect(now).toEqual({ ...bolded, id: '50012' });
  });

  it('by another author, at another place, deleted, or on the page by its own id is not matched', () => {
    const ann = stored(post('50012', 2, 'Ann', adapterBody));
    const gone = stored(post('50013', 3, 'Bob', adapterBody), BEFORE, true);
    const here = stored(post('50014', 4, 'Cy', adapterBody));
    const page = [
      post('1002', 2, 'Alice', genericBody),
      post('1003', 3, 'Bob', genericBody),
      post('50014', 4, 'Cy', genericBody),
      post('1004', 4, 'Cy', genericBody),
    ];
    const now = asStored(page, [ann, gone, here], SWITCH);
    expect(now.map((p) => p.id)).toEqual(['1002', '1003', '50014', '1004']);
  });

  it('first stored after the switch (by this reader) is left as read', () => {
    const mine = post('1005', 5, 'Eve', genericBody);
    const edited = post('1005', 5, 'Eve', [{ t: 'text', text: 'Vote: Ann' }]);
    expect(asStored([edited], [stored(mine, AFTER)], SWITCH)).toEqual([edited]);
    const other = post('1006', 6, 'Eve', genericBody);
    expect(asStored([other], [stored(post('50016', 6, 'Eve', adapterBody), AFTER)], SWITCH)).toEqual([other]);
  });
});

describe('what the vote parser reads of a body', () => {
  it('is the text with its marks, whatever blocks, breaks and spaces a reader draws', () => {
    expect(readingOf(adapterBody)).toBe(readingOf(genericBody));
    expect(readingOf(adapterBody)).toBe('Bobisquiet.{bold}Vote:Bob{/bold}');
  });
  it('tells a strike, a colour, a quote and a spoiler apart from plain text', () => {
    const plain: Body = [{ t: 'text', text: 'Vote: Bob' }];
    for (const t of ['strike', 'quote', 'spoiler'] as const) {
      const marked: Body =
        t === 'strike'
          ? [{ t, children: plain }]
          : t === 'quote'
            ? [{ t, author: null, children: plain }]
            : [{ t, title: null, children: plain }];
      expect(readingOf(marked)).not.toBe(readingOf(plain));
    }
    expect(readingOf([{ t: 'color', color: 'Red', children: plain }])).not.toBe(
      readingOf([{ t: 'color', color: 'blue', children: plain }]),
    );
  });
});
