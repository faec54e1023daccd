import { describe, expect, it } from 'vitest';
import { checkEventNames, posterNotes } from '../../src/cli/roster-checks.js';
import { NameMatching } from '../../src/rules/ruleset.js';
import { players } from '../tally/log-builders.js';

/* Issue #24: the roster checks match posters as the tally does, by the one folded name key. */
const matching = NameMatching.parse({});

describe('posterNotes: posters matched by the folded name key', () => {
  it('a poster matched only by folding is said once, and is neither a stranger nor silent (MafiaScum game 1114 post #72, donbot data 739243d)', () => {
    const roster = players('HumblePoirot', 'Javert');
    const notes = posterNotes(['Humble Poirot', 'Javert', 'Humble Poirot'], roster, [], [], matching);
    expect(notes).toEqual(['matched "Humble Poirot" to HumblePoirot']);
  });

  it('brackets the GM typed are folded too (MafiaScum game 1122 post #40, donbot data 739243d)', () => {
    const notes = posterNotes(['Redacted', 'Neruz'], players('[Redacted]', 'Neruz'), [], [], matching);
    expect(notes).toEqual(['matched "Redacted" to [Redacted]']);
  });

  it('where two players fold alike, another spelling is a stranger and both players stay silent', () => {
    const notes = posterNotes(['Bob-Smith'], players('Bob Smith', 'BobSmith'), [], [], matching);
    expect(notes.filter((n) => n.startsWith('matched'))).toEqual([]);
    expect(notes[0]).toMatch(/^"Bob-Smith" posted but is not in the player list/);
    expect(notes.filter((n) => n.includes('never posted'))).toHaveLength(2);
  });

  it("a replacement's name, folded, is known", () => {
    const events = [{ kind: 'replace' as const, player: 'Javert', by: 'Mute Swan', at: 3 }];
    const notes = posterNotes(['MuteSwan', 'Alice'], players('Alice', 'Javert'), [], events, matching);
    expect(notes).toEqual(['matched "MuteSwan" to Javert']);
  });
});

describe('posterNotes: one poster who is no player and one player who never posted', () => {
  const oneToOne = (notes: string[]) => notes.filter((n) => n.includes('renamed or replacement'));

  it('are said together: the poster may play the slot (MafiaScum game 1653, thread 61056, donbot data 739243d)', () => {
    const notes = posterNotes(['massive', 'Randomnamechange'], players('massive', 'randomidget'), [], [], matching);
    expect(notes).toEqual([
      '"Randomnamechange" posted but is not in the player list (did you mean a player, "randomidget"?)',
      'player "randomidget" never posted (did you mean a poster, "Randomnamechange"?)',
      '"Randomnamechange" posts and is not a player; "randomidget" never posted: if Randomnamechange plays ' +
        "randomidget (renamed or replacement), give --events a replace before Randomnamechange's first post " +
        '(kind: replace, player: randomidget, by: Randomnamechange)',
    ]);
  });

  it.each([
    ['two posters who are no players', ['Alice', 'Newbie', 'Stranger'], players('Alice', 'Zed')],
    ['two players who never posted', ['Alice', 'Newbie'], players('Alice', 'Zed', 'Yan')],
  ])('are not said together: %s', (_, posters, roster) => {
    expect(oneToOne(posterNotes(posters, roster, [], [], matching))).toEqual([]);
  });
});

describe('checkEventNames: event names folded as the tally folds them', () => {
  it('an event naming a player with other spacing is no error', () => {
    const events = [{ kind: 'kill' as const, player: 'Humble Poirot', at: 9 }];
    expect(checkEventNames(events, players('HumblePoirot', 'Javert'), matching, 'events.yaml')).toEqual([]);
  });
});
