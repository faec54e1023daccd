import { describe, expect, it } from 'vitest';
import { heldClass, nobodyDays } from '../../bench/nobody-days.js';

describe('nobody-eliminated Days, classified', () => {
  it.each([
    // MafiaScum game 1559 post #687 (donbot data 739243d)
    ['#687 "VOTE:"', 'held: an empty vote waits'],
    // MafiaScum game 1560 post #730 (donbot data 739243d)
    ['#730 "VOTE: CD": AGar or CooLDoG', 'held: a vote naming two players waits'],
    // MafiaScum game 1514 post #804 (donbot data 739243d)
    ['#804 "VOTE: PassionDale": Paschendale', 'held: a vote with one likely player waits'],
    // MafiaScum game 1452 post #775 (donbot data 739243d)
    ['#775 "vote: nahmann"', 'held: a vote naming nobody Votal knows waits'],
  ])('a held Day waiting on %s is "%s"', (waiting, klass) => {
    expect(heldClass(waiting)).toBe(klass);
  });

  const out = [
    'game 1452 D3: WRONG (held ended -, expected nhammen); wagons nhammen 4; flags {"unknown-target":1}',
    '  why #778 no wagon reached 5: nobody is eliminated',
    '  why #778 1 vote waits for you (#775 "vote: nahmann"); it could change who is eliminated',
    'game 1609 D2: WRONG (no-lynch -, expected TellTaleHeart); wagons TellTaleHeart 5; flags {"vote-by-non-player":7}',
    '  why #3507 no wagon reached 6: nobody is eliminated',
    'game 1180 D1: WRONG (no-lynch -, expected WormyKrew); wagons WormyKrew 4; flags {"vote-by-non-player":1}',
    'game 1711 D2: WRONG (no-lynch -, expected LexTrew); wagons LexTrew 3, Psyche 1; flags {}',
    'game 1157 D8: WRONG (majority Slaxx, expected Scumhunter); wagons Slaxx 4; flags {}',
    'count-cause: game 1609 D2 #3100 matched',
    'count-cause: game 1609 D2 #3506 material',
  ];

  it('a Day with a held decision is classed by its waiting votes', () => {
    expect(nobodyDays(out)[0]).toMatchObject({
      game: '1452',
      day: 'D3',
      klass: 'held: a vote naming nobody Votal knows waits',
    });
  });

  it("a Day not held is classed by the cause of its last differing moderator's count", () => {
    expect(nobodyDays(out)[1]).toMatchObject({ game: '1609', klass: "count short: a voter's name the archive lacks" });
  });

  it('a Day with no count of the GM is classed by its flags', () => {
    expect(
      nobodyDays(out)
        .slice(2)
        .map((d) => d.klass),
    ).toEqual(['no GM count: a voter is not on the roster', 'no GM count: other']);
  });

  it('a Day where Votal eliminated the wrong player is not a nobody Day', () => {
    expect(nobodyDays(out).map((d) => d.game)).not.toContain('1157');
  });
});
