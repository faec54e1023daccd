import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import { Roster, type SlotInput } from '../../src/model/roster.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';

/**
 * Initials read through a name's words, in the phpBB markup the votes were posted in
 * (forum.mafiascum.net threads, as stored in github.com/Computational-Mafia/donbot
 * data/posts/<thread>.jsonl at commit 739243d; the players are the archive's slots).
 */
const ruleset = loadRuleset('mafiascum-majority');
const markup = adapterOf('phpbb').descriptor.body;
const votesIn = (html: string, players: (string | SlotInput)[]) =>
  readPost(
    { body: parseFragment(html, markup, 'https://forum.mafiascum.net/viewtopic.php'), edit: null },
    Roster.parse(players.map((p) => (typeof p === 'string' ? { name: p } : p))),
    ruleset,
  ).actions.filter((a) => a.kind === 'vote');

// Mini 1207 (t=18412): the slots that Day, current names and the players they replaced.
const mini1207: (string | SlotInput)[] = [
  { name: 'mastin2', formerNames: ['theplague42'] },
  'AlmasterGM',
  'Hinduragi',
  { name: 'Riddick', formerNames: ['Lady Lambdadelta'] },
  'Wickedestjr',
  'gorilla',
  'SGRaaize',
  'charter',
  'Slaxx',
  'Science and Magic',
  'Diamondilium',
];

describe('initials read through the words of a name', () => {
  it('a word of a longer name gives the initials of the English words it is made of (LLD: Lady Lambda-delta)', () => {
    // Mini 1207, t=18412 post 161 by Hinduragi, Day 1 (the slot Riddick took over later).
    const html =
      'I read it as an appeasement to SaM.<br>\n<br>\n<div style="display:inline;font-weight:bold">Unvote, Vote: LLD</div><br>\n<br>\nI\'m not as confident about Diamond as LLD.';
    expect(votesIn(html, mini1207).map((v) => [v.target, v.match])).toEqual([['Riddick', 'acronym']]);
  });

  it('a word in capitals inside a CamelCase name is initials already (AGM: AlmasterGM)', () => {
    // Mini 1207, t=18412 post 626 by Hinduragi, Day 2.
    const html = 'I actually believe this. <div style="display:inline;font-weight:bold">Unvote; Vote: AGM</div><br>';
    expect(votesIn(html, mini1207).map((v) => [v.target, v.match])).toEqual([['AlmasterGM', 'acronym']]);
  });

  it('a CamelCase word made of two English words gives both initials (WOMC: Weaponsof-Mass-Construction)', () => {
    // Mini 1121, t=16263 post 78 by mongoose, Day 1 (the "[/unvote]" typed in it is not part of
    // the name); the slot is Swiftstrike's, who replaced in later.
    const players: (string | SlotInput)[] = [
      { name: 'KingTwelveSixteen', formerNames: ['neil1113'] },
      { name: 'Swiftstrike', formerNames: ['WeaponsofMassConstruction'] },
      { name: 'Empking', formerNames: ['mongoose'] },
      'mb53',
      'Zdenek',
    ];
    const html =
      'Oh yeah, I almost forgot: <span class="bbvote" title="This is an official vote.">VOTE: WOMC[/unvote]</span>';
    expect(votesIn(html, players).map((v) => [v.target, v.match])).toEqual([['Swiftstrike', 'acronym']]);
  });

  it('initials that read two names through their words go to the GM', () => {
    const html = '<div style="display:inline;font-weight:bold">Vote: LLD</div>';
    const players = ['Lady Lambdadelta', 'LadyLittleDragon', 'Slaxx'];
    const [vote] = votesIn(html, players);
    expect(vote?.target).toBeNull();
    expect(vote?.match).toBe('ambiguous');
  });

  it('every word gives an initial: fewer initials than words read nothing by a split', () => {
    const html = '<div style="display:inline;font-weight:bold">Vote: LL</div>';
    const [vote] = votesIn(html, ['Lady Lambda Delta', 'Slaxx']);
    expect(vote?.target).toBeNull();
  });
});

describe("a former name's initials do not compete with a living player's own", () => {
  it('a one-word former name is not split into dictionary words (MT: Magic Trainer, not Morthas)', () => {
    // Mini 1203, t=18169 post 2245 by SpyreX, Day 6 (the Day Magic Trainer was lynched);
    // Cyberbob replaced Morthas and Magic Trainer replaced TwistedSpoon.
    const players: (string | SlotInput)[] = [
      { name: 'Pine', formerNames: ['Swankidelic'] },
      { name: 'Cyberbob', formerNames: ['Morthas'] },
      { name: 'Magic Trainer', formerNames: ['TwistedSpoon'] },
      'SpyreX',
      'Toast',
    ];
    const html =
      'I did my best and it comes to this:<br>\n<br>\n<div style="display:inline;font-weight:bold">Unvote, Vote: MT</div>';
    expect(votesIn(html, players).map((v) => [v.target, v.match])).toEqual([['Magic Trainer', 'acronym']]);
  });
});
