import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeForum, type FakeForum } from '../../src/fake-forum/server.js';
import { MAX_ROSTER_LINES } from '../../src/parse/opening-roster.js';
import { inspectThread } from '../../src/web/ui/inspect-thread.js';
import { FakeThread } from '../publish/fake-thread.js';

/**
 * The new-game form's proposal (issue #28): the players come from the opening post's list,
 * checked against the thread, so one named there who has not posted yet is proposed.
 */
describe("the new-game form's players", () => {
  let forum: FakeForum;
  beforeAll(async () => {
    forum = await startFakeForum();
  });
  afterAll(async () => {
    await forum?.close();
  });

  const users = { Moderator: 1, Alice: 11, Bob: 12, Carol: 13, Dave: 14, Davina: 15, Eve: 16, Frank: 17, Grace: 18 };

  it('a "Players: a, b, ..." line longer than a heading: everyone listed, Grace who has not posted too', async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2', prefix: '/a', users });
    thread.add({
      author: 'Moderator',
      body: '[b]Day 1 begins.[/b]\nPlayers: Alice, Bob, Carol, Dave, Davina, Eve, Frank, Grace\nMajority is 5.',
    });
    thread.add({ author: 'Alice', body: 'Hello.' });
    thread.add({ author: 'Bob', body: '[b]Vote: Alice[/b]' });
    const facts = await inspectThread(thread.url, { allowPrivateHosts: true });
    expect(facts.playersFrom).toBe('opening-post');
    expect(facts.players).toEqual(['Alice', 'Bob', 'Carol', 'Dave', 'Davina', 'Eve', 'Frank', 'Grace']);
  });

  it('bold names one a line, no heading: confirmed by the posters, the quiet one proposed', async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2', prefix: '/b', users });
    thread.add({
      author: 'Moderator',
      body: 'Welcome, all of you:\n[b]Alice[/b]\n[b]Bob[/b]\n[b]Carol[/b]\n[b]Grace[/b]\n\nGood luck!',
    });
    thread.add({ author: 'Alice', body: 'Hi.' });
    thread.add({ author: 'Bob', body: 'Hi.' });
    thread.add({ author: 'Carol', body: 'Hi.' });
    const facts = await inspectThread(thread.url, { allowPrivateHosts: true });
    expect(facts.playersFrom).toBe('opening-post');
    expect(facts.players).toEqual(['Alice', 'Bob', 'Carol', 'Grace']);
  });

  it('no list in the opening post: everyone who posted', async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2', prefix: '/c', users });
    thread.add({ author: 'Moderator', body: 'Day 1 begins. Vote in bold.' });
    thread.add({ author: 'Alice', body: 'Hi.' });
    thread.add({ author: 'Bob', body: 'Hi.' });
    const facts = await inspectThread(thread.url, { allowPrivateHosts: true });
    expect(facts.playersFrom).toBe('posters');
    expect(facts.players).toEqual(['Alice', 'Bob']);
    expect(facts.openingLinesNotRead).toBe(0);
  });

  it('a list past the lines the reader reads: the posters are proposed, and the lines not read are counted for the form', async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2', prefix: '/d', users });
    const rules = Array.from({ length: MAX_ROSTER_LINES }, (_, k) => `Rule ${k + 1}: be nice.`).join('\n');
    thread.add({ author: 'Moderator', body: `${rules}\nPlayers:\nAlice\nBob\nCarol\nGrace` });
    thread.add({ author: 'Alice', body: 'Hi.' });
    thread.add({ author: 'Bob', body: 'Hi.' });
    const facts = await inspectThread(thread.url, { allowPrivateHosts: true });
    expect(facts.playersFrom).toBe('posters');
    expect(facts.openingLinesNotRead).toBe(5);
  });

  it("the rules post's deadline rule, with its sentence, from the GM's second post (mafiascum game 1166 post #1's shape)", async () => {
    const thread = new FakeThread(forum, { engine: 'xenforo2', prefix: '/e', users });
    thread.add({ author: 'Moderator', body: 'Players:\nAlice\nBob\nCarol' });
    thread.add({
      author: 'Moderator',
      body: "Rules\nIf a majority isn't reached by the deadline, a no lynch will occur.",
    });
    thread.add({ author: 'Alice', body: 'If no majority is reached by deadline, the most votes will be lynched.' });
    const facts = await inspectThread(thread.url, { allowPrivateHosts: true });
    expect(facts.rules).toEqual([
      {
        rule: 'deadline',
        overrides: { shortOfThreshold: 'no-elimination' },
        sentence: "If a majority isn't reached by the deadline, a no lynch will occur.",
      },
    ]);
  });
});
