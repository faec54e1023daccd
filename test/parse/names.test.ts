import { describe, expect, it } from 'vitest';
import type { MatchKind } from '../../src/model/action.js';
import type { SlotInput } from '../../src/model/roster.js';
import { acronymOf, acronymsOf, nameKey, stripDecorations } from '../../src/parse/name-form.js';
import { resolveName, type ResolveOptions } from '../../src/parse/names.js';
import { NameMatching } from '../../src/rules/ruleset.js';
import { roster } from './build.js';

/** MafiaScum-style names, for the acronym and "vote contains name" rows. */
const LONG_NAMES: SlotInput[] = [
  { name: 'A Simple Name' },
  { name: 'Mr Two Words' },
  { name: 'TheManHimself' },
  { name: 'ScottBro' },
  { name: 'Scott Brosius' },
  { name: 'Lateralus', formerNames: ['Lat Old'] },
];

interface Case {
  name: string;
  written: string;
  players?: SlotInput[];
  matching?: Partial<NameMatching>;
  options?: ResolveOptions;
  match: MatchKind;
  target: string | null;
  candidates?: string[];
  alive?: boolean | null;
}

const cases: Case[] = [
  { name: 'exact canonical name', written: 'Zeke', match: 'exact', target: 'Zeke' },
  { name: 'accent- and case-insensitive', written: 'JOSE', match: 'exact', target: 'José' },
  { name: 'accents written where the name has none', written: 'Zéké', match: 'exact', target: 'Zeke' },
  { name: 'punctuation and spaces ignored', written: 'dr who', match: 'exact', target: 'Dr. Who' },
  { name: 'mixed case exact', written: 'xxshadowxx', match: 'exact', target: 'xXShadowXx' },
  { name: 'alias', written: 'Mal', match: 'alias', target: 'Mallory' },
  { name: 'former name of a replaced slot counts for the slot', written: 'Trent', match: 'exact', target: 'Robert' },
  {
    name: "a canonical name beats another slot's former name",
    written: 'Bob',
    players: [{ name: 'Bob' }, { name: 'Carl', formerNames: ['Bob'] }],
    match: 'exact',
    target: 'Bob',
  },
  { name: 'exact beats a longer name it prefixes', written: 'Bob', match: 'exact', target: 'Bob' },
  { name: 'unique prefix', written: 'Mall', match: 'prefix', target: 'Mallory' },
  { name: 'unique prefix of a two-word name', written: 'Peggy', match: 'prefix', target: 'Peggy Sue' },
  {
    name: 'ambiguous prefix goes to review',
    written: 'Ali',
    match: 'ambiguous',
    target: null,
    candidates: ['Alice', 'Alicia'],
  },
  {
    name: 'a prefix shorter than minPartial that spells an English word is not used',
    written: 'Ma',
    match: 'unknown',
    target: null,
  },
  {
    name: 'minPartial comes from the ruleset',
    written: 'Mall',
    matching: { minPartial: 5 },
    match: 'unknown',
    target: null,
  },
  { name: 'unique substring', written: 'shadow', match: 'substring', target: 'xXShadowXx' },
  { name: 'substring of a name with punctuation', written: 'who', match: 'substring', target: 'Dr. Who' },
  { name: 'acronym', written: 'DW', match: 'acronym', target: 'Dr. Who' },
  { name: 'acronym of two words', written: 'PS', match: 'acronym', target: 'Peggy Sue' },
  { name: 'acronym of initials (asn)', written: 'asn', players: LONG_NAMES, match: 'acronym', target: 'A Simple Name' },
  { name: 'CamelCase acronym', written: 'TMH', players: LONG_NAMES, match: 'acronym', target: 'TheManHimself' },
  {
    name: 'ambiguous acronym goes to review',
    written: 'SB',
    players: LONG_NAMES,
    match: 'ambiguous',
    target: null,
    candidates: ['ScottBro', 'Scott Brosius'],
  },
  { name: 'unmatched acronym is unknown', written: 'ADN', players: LONG_NAMES, match: 'unknown', target: null },
  { name: 'typo by Jaro-Winkler', written: 'Mallroy', match: 'fuzzy', target: 'Mallory' },
  { name: 'typo in a two-word name', written: 'Peggy Sou', match: 'fuzzy', target: 'Peggy Sue' },
  {
    name: 'fuzzy without margin is ambiguous',
    written: 'Marra',
    players: [{ name: 'Marla' }, { name: 'Marta' }, { name: 'Zeke' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Marla', 'Marta'],
  },
  { name: 'unknown name is unknown', written: 'nobody', match: 'unknown', target: null },
  {
    name: 'a word that only looks like a name is unknown',
    written: 'Deadline Extention',
    match: 'unknown',
    target: null,
  },
  { name: 'decorated name Bob (L-2)', written: 'Bob (L-2)', match: 'exact', target: 'Bob' },
  {
    name: 'decorated name with a wagon level and no brackets',
    written: 'TheManHimself L - 1',
    players: LONG_NAMES,
    match: 'exact',
    target: 'TheManHimself',
  },
  { name: '@mention', written: '@Bob', match: 'exact', target: 'Bob' },
  { name: "Bob's slot", written: "Bob's slot", match: 'exact', target: 'Bob' },
  {
    name: "Scott Brosius' Slot",
    written: "Scott Brosius' Slot",
    players: LONG_NAMES,
    match: 'exact',
    target: 'Scott Brosius',
  },
  {
    name: "Lateralus's replacement",
    written: "Lateralus's replacement",
    players: LONG_NAMES,
    match: 'exact',
    target: 'Lateralus',
  },
  {
    // mafiascum game 1365 post #531: "vote:gutter's spot" for Guttersnipe, being replaced.
    name: "Bob's spot",
    written: "gutter's spot",
    players: [{ name: 'Guttersnipe' }, { name: 'CooLDoG' }],
    match: 'prefix',
    target: 'Guttersnipe',
  },
  { name: 'possessive alone', written: "Zeke's", match: 'exact', target: 'Zeke' },
  { name: 'trailing punctuation and emoji', written: 'Bob!!! 😠', match: 'exact', target: 'Bob' },
  { name: 'typed BBCode around the name', written: '[color=red]Bob[/color]', match: 'exact', target: 'Bob' },
  { name: 'trailing [bracketed] note', written: 'Zeke [hammer]', match: 'exact', target: 'Zeke' },
  { name: 'a name followed by reasons', written: 'Bob because he lied', match: 'exact', target: 'Bob' },
  { name: 'a two-word name followed by reasons', written: 'Peggy Sue obviously', match: 'exact', target: 'Peggy Sue' },
  {
    name: 'reasons after a name are refused when trailing words are off',
    written: 'Bob because he lied',
    options: { trailingWords: false },
    match: 'unknown',
    target: null,
  },
  {
    name: 'dead players still resolve, flagged not alive',
    written: 'Eve',
    match: 'exact',
    target: 'Eve',
    alive: false,
  },
  {
    name: 'a very long target is capped, not matched whole',
    written: `Bob ${'x'.repeat(5000)}`,
    match: 'exact',
    target: 'Bob',
  },
  { name: 'empty name is unknown', written: '  !!  ', match: 'unknown', target: null },
  { name: 'an empty roster knows nobody', written: 'Bob', players: [], match: 'unknown', target: null },

  // Issue #12: names as real players write them.
  { name: 'a single letter only one name starts with', written: 'Z', match: 'prefix', target: 'Zeke' },
  {
    name: 'a single letter several names start with is ambiguous',
    written: 'A',
    match: 'ambiguous',
    target: null,
    candidates: ['Alice', 'Alicia'],
  },
  {
    // mafiascum game 1645 (t=60635) post #496 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "vote: Oz", counted for Ozgin.
    name: 'two letters only one name starts with, spelling no English word ("Oz" for Ozgin)',
    written: 'Oz',
    players: [{ name: 'Ozgin' }, { name: 'BlueBloodedToffee' }, { name: 'pisskop' }],
    match: 'prefix',
    target: 'Ozgin',
  },
  {
    name: 'two letters that are an English word are not a prefix ("me" is not Meg)',
    written: 'me',
    players: [{ name: 'Meg' }, { name: 'Ozgin' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'two letters several names start with are ambiguous',
    written: 'Oz',
    players: [{ name: 'Ozgin' }, { name: 'Ozzy' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Ozgin', 'Ozzy'],
  },
  {
    // mafiascum game 1671 (t=61783) posts #1110-#1114 (as stored in github.com/Computational-Mafia/donbot data/posts
    // @739243d): four "VOTE: PB" on Day 4, when Prolapsed Brain was dead; counted for PeaceBringer.
    name: "initials of one living player and only dead others are the living one's (PB: PeaceBringer)",
    written: 'PB',
    players: [{ name: 'PeaceBringer' }, { name: 'Prolapsed Brain', alive: false }, { name: 'Juls' }],
    match: 'acronym',
    target: 'PeaceBringer',
    candidates: ['Prolapsed Brain'],
  },
  {
    name: "a prefix of one living player and only dead others is the living one's",
    written: 'Ev',
    players: [{ name: 'Evelyn' }, { name: 'Everett', alive: false }, { name: 'Juls' }],
    match: 'prefix',
    target: 'Evelyn',
    candidates: ['Everett'],
  },
  {
    name: 'initials of two living players stay ambiguous though a third is dead',
    written: 'PB',
    players: [{ name: 'PeaceBringer' }, { name: 'Prolapsed Brain', alive: false }, { name: 'Purple Bat' }],
    match: 'ambiguous',
    target: null,
    candidates: ['PeaceBringer', 'Prolapsed Brain', 'Purple Bat'],
  },
  {
    name: 'a short exact word of a longer name',
    written: 'AJ',
    players: [{ name: 'Aj The Epic' }, { name: 'Alchemist21' }],
    match: 'substring',
    target: 'Aj The Epic',
  },
  {
    name: 'a short word of two names is ambiguous',
    written: 'Mo',
    players: [{ name: 'Mo Bee' }, { name: 'Big Mo' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Mo Bee', 'Big Mo'],
  },
  {
    name: 'an acronym and a short word naming two players is ambiguous',
    written: 'AJ',
    players: [{ name: 'Aj The Epic' }, { name: 'Any Joe' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Any Joe', 'Aj The Epic'],
  },
  { name: 'surname first', written: 'Brosius Scott', players: LONG_NAMES, match: 'fuzzy', target: 'Scott Brosius' },
  {
    name: 'a shortened two-word name',
    written: 'Scotty B',
    players: [{ name: 'Scott Brosius' }, { name: 'Amor' }],
    match: 'fuzzy',
    target: 'Scott Brosius',
  },
  {
    name: 'a shortened name two names fit is ambiguous',
    written: 'Scotty B',
    players: LONG_NAMES,
    match: 'ambiguous',
    target: null,
    candidates: ['ScottBro', 'Scott Brosius'],
  },
  {
    name: 'an acronym through a possessive',
    written: 'MS',
    players: [{ name: "Midnight's Sorrow" }, { name: 'charter' }],
    match: 'acronym',
    target: "Midnight's Sorrow",
  },
  {
    name: '"&" for "and" in an acronym',
    written: 'M&L',
    players: [{ name: 'mario and lugi' }, { name: 'Elyse' }],
    match: 'acronym',
    target: 'mario and lugi',
  },
  {
    name: '"and" kept in an acronym',
    written: 'MaL',
    players: [{ name: 'Mario & Luigi' }, { name: 'Elyse' }],
    match: 'acronym',
    target: 'Mario & Luigi',
  },
  {
    name: '"X / or / Y" is ambiguous',
    written: 'Zeke / or / Bob',
    match: 'ambiguous',
    target: null,
    candidates: ['Zeke', 'Bob'],
  },
  {
    name: '"X or Y" is ambiguous',
    written: 'Zeke or Bob',
    match: 'ambiguous',
    target: null,
    candidates: ['Zeke', 'Bob'],
  },
  {
    name: 'a name with a slash in it is still exact',
    written: 'AC/DC',
    players: [{ name: 'AC/DC' }, { name: 'Bob' }],
    match: 'exact',
    target: 'AC/DC',
  },
  {
    // mafiascum game 1193 post #502: "vote: zodiark. THIS IS L-1".
    name: 'the first sentence is the name, read on the whole ladder',
    written: 'zodiark. THIS IS L-1',
    players: [{ name: 'Zodiark13' }, { name: 'havingfitz' }],
    match: 'prefix',
    target: 'Zodiark13',
  },
  {
    name: 'the sentence after the name may name other players',
    written: 'Bobb. Carol, you too',
    players: [{ name: 'Bobby' }, { name: 'Carol' }],
    match: 'prefix',
    target: 'Bobby',
  },
  {
    // "J" alone is Jay's initial; before a sentence it is too short to be the vote.
    name: 'a first sentence shorter than minPartial is no name',
    written: 'J. lol',
    players: [{ name: 'Jay' }, { name: 'Carol' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'one word after a dot is the rest of the name, not a sentence',
    written: 'Mrs. Smyth',
    players: [{ name: 'Mrs. Smith' }, { name: 'Mrsomebody' }],
    match: 'fuzzy',
    target: 'Mrs. Smith',
  },
  {
    // mafiascum game 1393 post #15.
    name: 'a description with the name in brackets is the name, shown',
    written: 'He who must not be named (Lord Voldemort)',
    players: [{ name: 'Lord Voldemort' }, { name: 'Bacde' }],
    match: 'substring',
    target: 'Lord Voldemort',
  },
  {
    // mafiascum game 1857 post #2871: Impoetic is the slot's former name.
    name: '"X aka Y" naming one player counts for that player',
    written: 'Shad aka Impoetic',
    players: [{ name: 'shadonra', formerNames: ['Impoetic'] }, { name: 'Sesq' }],
    match: 'prefix',
    target: 'shadonra',
  },
  {
    // mafiascum game 1584 post #380.
    name: 'a short form restated in full after ";" counts',
    written: 'BBT; BlueBloodedToffee',
    players: [{ name: 'BlueBloodedToffee' }, { name: 'Aneninen' }],
    match: 'acronym',
    target: 'BlueBloodedToffee',
  },
  {
    // test/ui/xss.browser.test.ts: a player named `"><img src=x onerror="…;alert('n2')">`.
    name: "a name's own ';' and brackets, with no space, are not a restatement",
    written: 'Tom;Jer',
    players: [{ name: 'Tom;Jerry' }, { name: 'Tommy' }],
    match: 'prefix',
    target: 'Tom;Jerry',
  },
  {
    name: 'a restatement naming two players is ambiguous',
    written: 'Bobb (Carol)',
    players: [{ name: 'Bobby' }, { name: 'Carol' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Bobby', 'Carol'],
  },
  {
    name: 'a loose part with an unknown one is not enough',
    written: 'Bobb aka the quiet one',
    players: [{ name: 'Bobby' }, { name: 'Carol' }],
    options: { trailingWords: false },
    match: 'unknown',
    target: null,
  },
  {
    name: "a former name's acronym against a living player's prefix is ambiguous",
    written: 'JAB',
    players: [{ name: 'Jabo' }, { name: 'Robert', formerNames: ['Just Another Bob'] }],
    match: 'ambiguous',
    target: null,
    candidates: ['Jabo', 'Robert'],
  },
  {
    name: "a former name's acronym against a living name it abbreviates is ambiguous",
    written: 'CD',
    players: [{ name: 'CooLDoG' }, { name: 'AGar', formerNames: ['ChannelDelibird'] }],
    match: 'ambiguous',
    target: null,
    candidates: ['AGar', 'CooLDoG'],
  },
  {
    name: "a former name's acronym with no rival names its slot",
    written: 'MM4',
    players: [{ name: 'NJAC', formerNames: ['MarioManiac4'] }, { name: 'Eggman' }],
    match: 'acronym',
    target: 'NJAC',
  },
  // Issue #24: one-word usernames read as English words for their initials (vca's rule).
  {
    name: 'initials in capitals read a one-word username as its English words (TMHS)',
    written: 'TMHS',
    players: [{ name: 'themanhimself' }, { name: 'Amor' }],
    match: 'acronym',
    target: 'themanhimself',
  },
  {
    name: 'the last piece of a split username need not be a word (TK: third-koopa)',
    written: 'TK',
    players: [{ name: 'Thirdkoopa' }, { name: 'Amor' }],
    match: 'acronym',
    target: 'Thirdkoopa',
  },
  {
    // MafiaScum Mini 1352 "Leprechaun Mafia" Day 6, posts 1684-1685 (forum.mafiascum.net t=22540,
    // as stored in github.com/Computational-Mafia/donbot data/posts/22540.jsonl @739243d): the hammer.
    name: 'digits after a one-word username are no word of their own (EPM: evil-pac-man for evilpacman18)',
    written: 'EPM',
    players: [{ name: 'evilpacman18' }, { name: 'Scumhunter' }, { name: 'FuDuzn' }, { name: 'Tammy' }],
    match: 'acronym',
    target: 'evilpacman18',
  },
  {
    // mafiascum game 1481 post #334 (forum.mafiascum.net t=30346, as stored in github.com/Computational-Mafia/donbot
    // data/posts @739243d): "VOTE: tne", counted for thenewearth.
    name: 'initials in lower case that spell no English word split a username too (tne: the-new-earth)',
    written: 'tne',
    players: [{ name: 'thenewearth' }, { name: 'FSnake' }],
    match: 'acronym',
    target: 'thenewearth',
  },
  {
    name: 'a lower-case English word is no initials ("me" is not more-eggs)',
    written: 'me',
    players: [{ name: 'moreeggs' }, { name: 'Amor' }],
    match: 'unknown',
    target: null,
  },
  {
    // mafiascum game 1543 (t=37251) post #1313 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: GF", counted for The Goodfather.
    name: 'a joining word may be left out of initials read through words (GF: The Good-father)',
    written: 'GF',
    players: [{ name: 'The Goodfather' }, { name: 'Guyett' }, { name: 'Selkies' }],
    match: 'acronym',
    target: 'The Goodfather',
  },
  {
    // mafiascum game 1365 (t=22984) post #740 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "vote: TP42", counted for theplague42.
    name: 'initials may end with the digits the username ends with (TP42: the-plague-42)',
    written: 'TP42',
    players: [{ name: 'theplague42' }, { name: 'CooLDoG' }, { name: 'fatlikepig' }],
    match: 'acronym',
    target: 'theplague42',
  },
  {
    name: "initials ending in other digits than the username's are not its initials",
    written: 'TP41',
    players: [{ name: 'theplague42' }, { name: 'CooLDoG' }],
    match: 'unknown',
    target: null,
  },
  {
    // mafiascum game 1516 (t=33008) post #422 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "vote HF", counted for havingfitz; Herself merely starts with h and has an f.
    name: 'initials a current name splits into are not challenged by a name that only has those letters (HF: having-fitz)',
    written: 'HF',
    players: [{ name: 'havingfitz' }, { name: 'Herself' }, { name: 'Garmr' }],
    match: 'acronym',
    target: 'havingfitz',
  },
  {
    // mafiascum game 1917 (t=72052) post #922 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: GE", kraska77 replaced Gamma Emerald; counted for kraska77.
    name: "a former name's acronym wins over names that only have its letters (GE: Gamma Emerald, not Grendel)",
    written: 'GE',
    players: [
      { name: 'kraska77', formerNames: ['Gamma Emerald'] },
      { name: 'Grendel' },
      { name: 'gigabyteTroubadour' },
    ],
    match: 'acronym',
    target: 'kraska77',
  },
  {
    name: 'a dictionary split and a CamelCase acronym for two players is ambiguous',
    written: 'TMHS',
    players: [{ name: 'themanhimself' }, { name: 'TheMadHatSeller' }],
    match: 'ambiguous',
    target: null,
    candidates: ['TheMadHatSeller', 'themanhimself'],
  },
  {
    // mafiascum game 1326 (t=21622) post #841 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "Vote PoPP", counted for pieceofpecanpie.
    name: 'a joining word is a piece of a split username though short (PoPP: piece-of-pecan-pie)',
    written: 'PoPP',
    players: [{ name: 'pieceofpecanpie' }, { name: 'Rainbowdash' }, { name: 'DCLXVI' }],
    match: 'acronym',
    target: 'pieceofpecanpie',
  },
  {
    // mafiascum game 1728 (t=63716) post #1684 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: AP", counted for AngryPidgeon.
    name: "a name's own initials beat a username cut after a word into any rest (AP: AngryPidgeon, not aristo-phanes)",
    written: 'AP',
    players: [{ name: 'AngryPidgeon' }, { name: 'Aristophanes' }, { name: 'Gimlear' }],
    match: 'acronym',
    target: 'AngryPidgeon',
  },
  {
    // mafiascum game 1326 (t=21622) post #115 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "Vote: PC", Scott Brosius replaced Political Clout; counted for Scott Brosius.
    name: "a former name's acronym is not challenged by a username cut into a word and any rest (PC: not pie-ceofpecanpie)",
    written: 'PC',
    players: [
      { name: 'Scott Brosius', formerNames: ['Political Clout'] },
      { name: 'pieceofpecanpie' },
      { name: 'Gooner' },
    ],
    match: 'acronym',
    target: 'Scott Brosius',
  },
  {
    name: 'a split needs one dictionary word per initial before the last (pieces under three letters are not words)',
    written: 'AB',
    players: [{ name: 'abby' }, { name: 'Amor' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a leading extra word before a two-word name',
    written: 'Creepy Scott Brosius',
    players: [{ name: 'Scott Brosius' }, { name: 'Amor' }],
    match: 'substring',
    target: 'Scott Brosius',
  },
  {
    name: 'a leading extra word before a one-word name is not enough ("not Bob")',
    written: 'not Amor',
    players: [{ name: 'Scott Brosius' }, { name: 'Amor' }],
    options: { trailingWords: false },
    match: 'unknown',
    target: null,
  },
  {
    // MafiaScum Mini 1202 "Smalltown Mafia" Day 3, posts 798 and 807 (forum.mafiascum.net t=18035, as
    // stored in github.com/Computational-Mafia/donbot data/posts/18035.jsonl @739243d): VP Baltar's lynch.
    name: 'a misspelt word of a name of several words is that player, read as fuzzy ("Balter" for VP Baltar)',
    written: 'Balter',
    players: [{ name: 'VP Baltar' }, { name: 'hiplop' }, { name: 'Beck' }, { name: 'charter' }],
    match: 'fuzzy',
    target: 'VP Baltar',
  },
  {
    name: "a misspelt word as close to another player's word is ambiguous (Baltar, Walter)",
    written: 'Balter',
    players: [{ name: 'VP Baltar' }, { name: 'Walter White' }],
    match: 'ambiguous',
    target: null,
    candidates: ['VP Baltar', 'Walter White'],
  },
  {
    // MafiaScum Mini 1449 Day 2, posts 770-832 (forum.mafiascum.net t=28250, as stored in github.com/Computational-Mafia/donbot data/posts @739243d): ac1983fan's lynch.
    name: 'a name written without its digits ("acfan" for ac1983fan), read as fuzzy',
    written: 'ACfan',
    players: [{ name: 'ac1983fan' }, { name: 'Toomai' }, { name: 'Cheery Pie' }],
    match: 'fuzzy',
    target: 'ac1983fan',
  },
  {
    // MafiaScum Mini 1655 Day 2 (forum.mafiascum.net t=61070, as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "VOTE: TN", tn5421's lynch.
    name: 'two letters that are the name without its digits ("TN" for tn5421)',
    written: 'TN',
    players: [{ name: 'tn5421' }, { name: 'Lucky2u' }, { name: 'Bookitty' }],
    match: 'fuzzy',
    target: 'tn5421',
  },
  {
    // MafiaScum Mini 1879 Day 3 (forum.mafiascum.net t=70351, as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "VOTE: Frog", Fro99er's lynch.
    name: 'digits read as the letters they look like, and a prefix of that ("Frog" for Fro99er)',
    written: 'Frog',
    players: [{ name: 'Fro99er' }, { name: 'Alisae' }, { name: 'havingfitz' }],
    match: 'fuzzy',
    target: 'Fro99er',
  },
  {
    name: 'two names the same without their digits are ambiguous (the GM decides)',
    written: 'tn',
    players: [{ name: 'tn5421' }, { name: 'tn77' }],
    match: 'ambiguous',
    target: null,
    candidates: ['tn5421', 'tn77'],
  },
  // A slip of the keys (Damerau-Levenshtein: one edit, two from eight letters), one player only.
  {
    // mafiascum game 1742 (t=64408) post #1035 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: Tahah", counted for talah in eleven counts.
    name: 'a letter changed in a name is that player, read as fuzzy ("Tahah" for talah)',
    written: 'Tahah',
    players: [{ name: 'talah' }, { name: 'Frozen Angel' }, { name: 'JohnnyFarrar' }],
    match: 'fuzzy',
    target: 'talah',
  },
  {
    // mafiascum game 1705 (t=62909) post #140 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "vote Clara", counted for Ciara24.
    name: 'a slip in the name without its digits ("Clara" for Ciara24)',
    written: 'Clara',
    players: [{ name: 'Ciara24' }, { name: 'Bacde' }, { name: 'eventi' }],
    match: 'fuzzy',
    target: 'Ciara24',
  },
  {
    // mafiascum game 1585 (t=58243) post #820 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: Misika", counted for Misaka Network.
    name: 'a slip in one word of a name of several words ("Misika" for Misaka Network)',
    written: 'Misika',
    players: [{ name: 'Misaka Network' }, { name: 'Guyett' }, { name: 'Chevre' }],
    match: 'fuzzy',
    target: 'Misaka Network',
  },
  {
    // mafiascum game 1602 (t=58816) post #171 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: Aneminem", counted for Aneninen.
    name: 'two slips in a name of eight letters ("Aneminem" for Aneninen)',
    written: 'Aneminem',
    players: [{ name: 'Aneninen' }, { name: 'DeasVail' }, { name: 'Malakittens' }],
    match: 'fuzzy',
    target: 'Aneninen',
  },
  {
    name: 'two slips in a shorter name are too many',
    written: 'Tohoh',
    players: [{ name: 'talah' }, { name: 'Frozen Angel' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a slip that is one letter from two players is ambiguous',
    written: 'Carla',
    players: [{ name: 'Carlo' }, { name: 'Marla' }, { name: 'Zeke' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Carlo', 'Marla'],
  },
  {
    // mafiascum game 1457 posts #4 and #283 write "Bub" for the slot the archive calls Bud Bidderskins.
    name: 'a slip in a word under five letters is another name ("Bub" is not Bud Bidderskins)',
    written: 'Bub',
    players: [{ name: 'Bud Bidderskins' }, { name: 'Telo' }, { name: 'Fate' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'stretched letters collapse to the name',
    written: 'Slandarrrrrrrr',
    players: [{ name: 'Slandar' }, { name: 'Amor' }],
    match: 'fuzzy',
    target: 'Slandar',
  },
  {
    // mafiascum game 1699 (t=62686) post #138 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: Anenineninenineni", counted for Aneninen in fifteen counts.
    name: 'a stretched syllable collapses to the name or a unique prefix of it ("Anenineninenineni")',
    written: 'Anenineninenineni',
    players: [{ name: 'Aneninen' }, { name: 'Soft-spoken' }, { name: 'notscience' }],
    match: 'fuzzy',
    target: 'Aneninen',
  },
  {
    // mafiascum game 1332 (t=21826) post #619 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'several stretched syllables, the shortest piece first ("vivivivijayayayay" for vijay2vasandani)',
    written: 'vivivivivivivivivivivivivivijayayayayayayayayayay',
    players: [{ name: 'vijay2vasandani' }, { name: 'BK201' }, { name: 'Om of the Nom' }],
    match: 'fuzzy',
    target: 'vijay2vasandani',
  },
  {
    name: 'stretched letters that fit two names are ambiguous',
    written: 'Slaaaandar',
    players: [{ name: 'Slandar' }, { name: 'Slandarr' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Slandar', 'Slandarr'],
  },
  {
    // MafiaScum game 1652 post #404 (donbot data 739243d): "VOTE: SillvverrWollff".
    name: 'three letters doubled are stretched, and a former name is stretched too ("SillvverrWollff")',
    written: 'SillvverrWollff',
    players: [{ name: 'Titus', formerNames: ['SilverWolf'] }, { name: 'ChaosOmega' }, { name: 'Ann' }],
    match: 'fuzzy',
    target: 'Titus',
  },
  {
    // MafiaScum game 1137 post #187 (donbot data 739243d): "VOTE: pappum's lying ass rat".
    name: "a name's words in order with other words between them ('pappum's lying ass rat')",
    written: "pappum's lying ass rat",
    players: [{ name: 'pappums rat' }, { name: 'havingfitz' }, { name: 'Voidedmafia' }],
    match: 'fuzzy',
    target: 'pappums rat',
  },
  {
    name: 'words between that fit two names are ambiguous',
    written: 'big lying bad wolf',
    players: [{ name: 'big wolf' }, { name: 'big bad wolf' }, { name: 'Ann' }],
    match: 'ambiguous',
    target: null,
    candidates: ['big wolf', 'big bad wolf'],
  },
  {
    name: 'more than three words between go to the GM ("pappums lying ass big bad rat")',
    written: 'pappums lying ass big bad rat',
    players: [{ name: 'pappums rat' }, { name: 'Ann' }],
    match: 'unknown',
    target: null,
    candidates: ['pappums rat'],
  },
  // Issue #24, the names real players write that the ladder missed (bench/real-games.ts --counts).
  {
    // mafiascum game 1933 (t=72770) post #1936 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: monkey/backhand" (Backhand replaced humaneatingmonkey), on Backhand's wagon in 23 counts.
    name: 'old and new name side by side ("monkey/backhand") is the one player, shown as substring',
    written: 'monkey/backhand',
    players: [{ name: 'Backhand', formerNames: ['humaneatingmonkey'] }, { name: 'tictac' }, { name: 'Mulch' }],
    match: 'substring',
    target: 'Backhand',
  },
  {
    // mafiascum game 1433 (t=26373) post #297 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "VOTE: Xegarus/replacement".
    name: 'a name and a word naming nobody ("Xegarus/replacement") is that player',
    written: 'Xegarus/replacement',
    players: [{ name: 'Zdenek', formerNames: ['Xegarus'] }, { name: 'Lurker' }, { name: 'Bacde' }],
    match: 'substring',
    target: 'Zdenek',
  },
  {
    name: 'a name beside a word that suggests another player is not read ("Bob/Carl")',
    written: 'Bob/Carl',
    players: [{ name: 'Bob' }, { name: 'Carol' }, { name: 'Zeke' }],
    matching: { fuzzyMin: 0.99 },
    match: 'unknown',
    target: null,
  },
  {
    name: 'two words naming nobody stay unknown ("Bezu/Jily")',
    written: 'Bezu/Jily',
    players: [{ name: 'jilynne1991' }, { name: 'Internet Stranger' }],
    match: 'unknown',
    target: null,
  },
  {
    // mafiascum game 1469 (t=29652) posts #507 and #637 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "Vote: PPP", "VOTE: ppp".
    name: 'initials of a username split into words may leave out a joining word ("PPP": piece-of-pecan-pie)',
    written: 'PPP',
    players: [{ name: 'pieceofpecanpie' }, { name: 'Effulgence' }, { name: 'Cheery Dog' }, { name: 'Team Rocket' }],
    match: 'acronym',
    target: 'pieceofpecanpie',
  },
  {
    // mafiascum game 1761 (t=65250) posts #471 and #495 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "VOTE: SMRP", "VOTE: smrp".
    name: 'initials with two neighbouring letters swapped ("SMRP" for Some Random Mafia Player), shown as fuzzy',
    written: 'SMRP',
    players: [{ name: 'Some Random Mafia Player' }, { name: 'Nosferatu' }, { name: 'Garmr' }],
    match: 'fuzzy',
    target: 'Some Random Mafia Player',
  },
  {
    // mafiascum game 1893 (t=71047) post #2876 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "vote IASW".
    name: 'the initials of a CamelCase name with two letters swapped ("IASW" for IAlwaysWinSometimes)',
    written: 'IASW',
    players: [{ name: 'IAlwaysWinSometimes' }, { name: 'TheFuzzylogic99' }, { name: 'Juri' }],
    match: 'fuzzy',
    target: 'IAlwaysWinSometimes',
  },
  {
    name: 'three initials swapped are other initials ("RSM" is not Some Random Mafia)',
    written: 'RSM',
    players: [{ name: 'Some Random Mafia' }, { name: 'Nosferatu' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'swapped initials that fit two players are ambiguous',
    written: 'ACBD',
    players: [{ name: 'Al Bo Cy Di' }, { name: 'Al Cy Di Bo' }, { name: 'Zeke' }],
    match: 'ambiguous',
    target: null,
  },
  {
    // mafiascum game 1850 (t=69080) posts #763, #1233, #1488 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "VOTE: jordan" for XnadrojX.
    name: 'a name written backwards, part of one player\'s name ("Jordan" in XnadrojX), shown as fuzzy',
    written: 'Jordan',
    players: [{ name: 'XnadrojX' }, { name: 'mykonian' }, { name: 'MTD' }, { name: 'Road Kamelot' }],
    match: 'fuzzy',
    target: 'XnadrojX',
  },
  {
    // mafiascum game 1850 (t=69080) post #539 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "vote xjordanx".
    name: 'a whole name written backwards ("xjordanx")',
    written: 'xjordanx',
    players: [{ name: 'XnadrojX' }, { name: 'mykonian' }, { name: 'MTD' }],
    match: 'fuzzy',
    target: 'XnadrojX',
  },
  {
    name: 'four letters backwards inside a name are too few ("Nala" is not in Stalanix)',
    written: 'Nala',
    players: [{ name: 'Stalanix' }, { name: 'Zeke' }],
    match: 'unknown',
    target: null,
  },
  {
    // mafiascum game 1636 (t=60277) posts #745, #741 and #743 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "Illl", "IIII", "1|Il" for llll.
    name: 'letters that look alike read as one ("1|Il" for llll), shown as fuzzy',
    written: '1|Il',
    players: [{ name: 'llll' }, { name: 'Aronis' }, { name: 'MonkeyMan576' }, { name: 'Gendaberry' }],
    match: 'fuzzy',
    target: 'llll',
  },
  {
    name: 'a capital I is read as l, a small i is not ("iiii" is not llll)',
    written: 'iiii',
    players: [{ name: 'llll' }, { name: 'Aronis' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'letters that look alike and fit two players are ambiguous',
    written: 'IIII',
    players: [{ name: 'llll' }, { name: 'lIlI' }, { name: 'Aronis' }],
    match: 'ambiguous',
    target: null,
  },
  {
    // mafiascum game 1591 (t=58515) post #6 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "VOTE: Princess Reinoe", counted for reinoe.
    name: 'a word naming nobody before a one-word name of five letters or more ("Princess Reinoe")',
    written: 'Princess Reinoe',
    players: [{ name: 'reinoe' }, { name: 'Drew-Sta' }, { name: 'farside22' }],
    match: 'substring',
    target: 'reinoe',
  },
  {
    // mafiascum game 1126 (t=16416) post #502 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d): "vote scum hiraki".
    name: 'a word naming nobody before a one-word name ("scum hiraki")',
    written: 'scum hiraki',
    players: [{ name: 'Hiraki' }, { name: 'RobCapone' }, { name: 'pod person' }],
    match: 'substring',
    target: 'Hiraki',
  },
  {
    name: '"not" before a one-word name is no vote for it ("not hiraki")',
    written: 'not hiraki',
    players: [{ name: 'Hiraki' }, { name: 'RobCapone' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a word before a short one-word name is too weak ("big Bob")',
    written: 'big Bob',
    players: [{ name: 'Bob' }, { name: 'RobCapone' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a word of one player\'s name before another player\'s name is ambiguous ("Robin Hiraki")',
    written: 'Robin Hiraki',
    players: [{ name: 'Hiraki' }, { name: 'Robin Hood' }, { name: 'Zeke' }],
    match: 'ambiguous',
    target: null,
    candidates: ['Robin Hood', 'Hiraki'],
  },
  {
    // mafiascum game 1609 (t=59089) post #1983 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: jagged toaster", on Jagged Appliance's wagon in eleven counts.
    name: 'a word of one player\'s name among words naming nobody ("jagged toaster"), shown as substring',
    written: 'jagged toaster',
    players: [{ name: 'Jagged Appliance' }, { name: 'Doogal121' }, { name: 'Vecna' }],
    match: 'substring',
    target: 'Jagged Appliance',
  },
  {
    // mafiascum game 1688 (t=62192) post #1325 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'a CamelCase word of a name among other words ("Evil Coyote" for RedCoyote)',
    written: 'Evil Coyote',
    players: [{ name: 'RedCoyote' }, { name: 'lalaladucks' }, { name: 'Bicephalous Bob' }],
    match: 'substring',
    target: 'RedCoyote',
  },
  {
    name: 'words of two players\' names among other words are ambiguous ("red bob thing")',
    written: 'red bob thing',
    players: [{ name: 'RedCoyote' }, { name: 'Bicephalous Bob' }],
    match: 'ambiguous',
    target: null,
  },
  {
    name: '"not" before a word of a name is no vote for it ("not Coyote please")',
    written: 'not Coyote please',
    players: [{ name: 'RedCoyote' }, { name: 'Zeke' }],
    match: 'unknown',
    target: null,
  },
  {
    // mafiascum game 1462 (t=29423) post #1542 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'the start of a name and a word for the rest ("Fuzzybutterwhatever"), shown as substring',
    written: 'Fuzzybutterwhatever',
    players: [{ name: 'fuzzybutternut' }, { name: 'broomhead' }, { name: 'KingdomAces' }],
    match: 'substring',
    target: 'fuzzybutternut',
  },
  {
    // mafiascum game 1903 (t=71483) post #58 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'a word for the start of a name and its end ("somethingwaffles" for SlingshotWaffles)',
    written: 'somethingwaffles',
    players: [{ name: 'SlingshotWaffles' }, { name: 'IAlwaysWinSometimes' }, { name: 'LicketyQuickety' }],
    match: 'substring',
    target: 'SlingshotWaffles',
  },
  {
    // MafiaScum game 1521 post #233 (donbot data 739243d): the moderator's count line "thegreygnarl: 1 - SonOfZeus".
    name: '"the" glued onto a player\'s exact name ("thegreygnarl" for greygnarl), shown as substring',
    written: 'thegreygnarl',
    players: [{ name: 'greygnarl' }, { name: 'SonOfZeus' }, { name: 'Alduskkel' }],
    match: 'substring',
    target: 'greygnarl',
  },
  {
    name: '"the" glued onto a name is not read where the whole is an English word ("therapist")',
    written: 'therapist',
    players: [{ name: 'Rapist' }, { name: 'SonOfZeus' }],
    match: 'unknown',
    target: null,
  },
  {
    // MafiaScum game 1888 posts #682, #848 (donbot data 739243d): "VOTE FIREWATER", on FireScreamer's wagon.
    name: 'the start of a name to a CamelCase word, then another English word ("FIREWATER" for FireScreamer), shown as substring',
    written: 'FIREWATER',
    players: [{ name: 'FireScreamer' }, { name: 'mozamis' }, { name: 'DogWatch' }],
    match: 'substring',
    target: 'FireScreamer',
  },
  {
    // MafiaScum game 1931 post #1558 (donbot data 739243d): "VOTE: mariomaker4", on MarioManiac4's wagon.
    name: 'the start of a name, another English word and the name\'s digits ("mariomaker4" for MarioManiac4)',
    written: 'mariomaker4',
    players: [{ name: 'MarioManiac4' }, { name: 'wavemode' }, { name: 'Thor665' }],
    match: 'substring',
    target: 'MarioManiac4',
  },
  {
    // MafiaScum game 1720 post #159 (donbot data 739243d): "VOTE: lalalaGIRAFFE", on lalaladucks's wagon.
    name: 'the start of a one-word name before the English word it ends with, then another word ("lalalaGIRAFFE")',
    written: 'lalalaGIRAFFE',
    players: [{ name: 'lalaladucks' }, { name: 'DeasVail' }, { name: 'BlueBloodedToffee' }],
    match: 'substring',
    target: 'lalaladucks',
  },
  {
    // MafiaScum game 1393 post #981 (donbot data 739243d): "VOTE: MetalScum89", on Metalmarsh89's wagon.
    name: 'the start of a name before an English word it ends with, another word and its digits ("MetalScum89")',
    written: 'MetalScum89',
    players: [{ name: 'Metalmarsh89' }, { name: 'AngryPidgeon' }, { name: 'Bacde' }],
    match: 'substring',
    target: 'Metalmarsh89',
  },
  {
    name: 'the start of a name then digits the name does not end with is no reading ("mariomaker5")',
    written: 'mariomaker5',
    players: [{ name: 'MarioManiac4' }, { name: 'wavemode' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'the start of two players\' names, then another word, is ambiguous ("firewater")',
    written: 'firewater',
    players: [{ name: 'FireScreamer' }, { name: 'FireDancer' }, { name: 'wavemode' }],
    match: 'ambiguous',
    target: null,
  },
  {
    name: 'a word for the rest that is another player\'s name is ambiguous ("Firemonk")',
    written: 'Firemonk',
    players: [{ name: 'FireScreamer' }, { name: 'monk' }, { name: 'wavemode' }],
    match: 'ambiguous',
    target: null,
  },
  {
    name: 'a start of fewer than four letters before another word is no reading ("Redbird" for RedCoyote)',
    written: 'Redbird',
    players: [{ name: 'RedCoyote' }, { name: 'wavemode' }],
    match: 'unknown',
    target: null,
  },
  {
    // MafiaScum game 1444 post #790 (donbot data 739243d): "VOTE: Arc9", on ArcAngel9's wagon.
    name: 'the start of a name, then the digits it ends with ("Arc9" for ArcAngel9)',
    written: 'Arc9',
    players: [{ name: 'ArcAngel9' }, { name: 'Telo' }, { name: 'Magical7' }],
    match: 'prefix',
    target: 'ArcAngel9',
  },
  {
    name: 'the start of a name with digits it does not end with is no reading ("Arc8")',
    written: 'Arc8',
    players: [{ name: 'ArcAngel9' }, { name: 'Telo' }],
    match: 'unknown',
    target: null,
  },
  {
    // mafiascum game 1444 (t=27171) post #460 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'a digit written as its word ("MagicalSeven" for Magical7), shown as fuzzy',
    written: 'MagicalSeven',
    players: [{ name: 'Magical7' }, { name: 'Slandaar' }, { name: 'RachMarie' }],
    match: 'fuzzy',
    target: 'Magical7',
  },
  {
    // mafiascum game 1933 (t=72770) post #1128 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'a number word written as its digit ("2inamillion" for TwoInAMillion)',
    written: '2inamillion',
    players: [{ name: 'TwoInAMillion' }, { name: 'CommKnight' }, { name: 'Tchill13' }],
    match: 'fuzzy',
    target: 'TwoInAMillion',
  },
  {
    name: 'a number read as a word that fits two players is ambiguous',
    written: 'Agent7',
    players: [{ name: 'Agent Seven' }, { name: 'agent_seven' }, { name: 'Zeke' }],
    match: 'ambiguous',
    target: null,
  },
  {
    // mafiascum game 1728 (t=63482) posts #563 and #599 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d):
    // "VOTE: Greyfox", "VOTE: Grey Foxx".
    name: 'a slip of the keys with the held-down letters aside ("Greyfox" for GrayFoxxxx)',
    written: 'Grey Foxx',
    players: [{ name: 'GrayFoxxxx' }, { name: 'Aristophanes' }, { name: 'Zulfy' }],
    match: 'fuzzy',
    target: 'GrayFoxxxx',
  },
  {
    // mafiascum game 1368 (t=23082) posts #821, #822, #825 (as stored in github.com/Computational-Mafia/donbot data/posts @739243d).
    name: 'the initials of a username\'s first words and its last word in full ("bbstar" for basketballstar24)',
    written: 'bbstar',
    players: [{ name: 'basketballstar24' }, { name: 'Cogito Ergo Sum' }, { name: 'killerjester' }],
    match: 'acronym',
    target: 'basketballstar24',
  },
  {
    name: 'initials and a last word that fit two players are ambiguous',
    written: 'bbstar',
    players: [{ name: 'basketballstar' }, { name: 'bigbluestar' }, { name: 'Zeke' }],
    match: 'ambiguous',
    target: null,
  },
  {
    name: 'an English word is not read as initials and a word ("pearl" is not projectearl)',
    written: 'pearl',
    players: [{ name: 'projectearl' }, { name: 'Zeke' }],
    match: 'unknown',
    target: null,
  },
  {
    name: 'a placeholder beside too few letters reads nothing ("Bobwhatever")',
    written: 'Bobwhatever',
    players: [{ name: 'Bobby' }, { name: 'Zeke' }],
    match: 'unknown',
    target: null,
  },
];

describe('resolveName', () => {
  it.each(cases)('$name', (c) => {
    const matching = NameMatching.parse(c.matching ?? {});
    const got = resolveName(c.written, roster(c.players), matching, c.options);
    expect({ match: got.match, target: got.target }).toEqual({ match: c.match, target: c.target });
    if (c.candidates) expect(got.candidates).toEqual(c.candidates);
    if (c.alive !== undefined) expect(got.alive).toBe(c.alive);
  });

  it('a slip of the keys reports its similarity score', () => {
    const got = resolveName('Tahah', roster([{ name: 'talah' }, { name: 'Amor' }]), NameMatching.parse({}));
    expect(got.match).toBe('fuzzy');
    expect(got.score).toBeCloseTo(0.8933, 4);
  });

  it('a fuzzy match reports its score', () => {
    const got = resolveName('Mallroy', roster(), NameMatching.parse({}));
    expect(got.score).toBeGreaterThanOrEqual(0.9);
  });

  it('an unknown close name offers a suggestion with its score', () => {
    const got = resolveName('Malroyy', roster(), NameMatching.parse({ fuzzyMin: 0.99 }));
    expect(got).toMatchObject({ match: 'unknown', target: null, candidates: ['Mallory'] });
    expect(got.score).not.toBeNull();
  });
});

describe('name forms', () => {
  it.each([
    ['@Bob', 'Bob'],
    ['Bob (L-2)', 'Bob'],
    ['Bob (L-2) [hammer]!!', 'Bob'],
    ["Bob's slot", 'Bob'],
    ['(Bob)', 'Bob'],
    ['Dr. Who', 'Dr. Who'],
  ])('strips the decorations of %s', (written, stripped) => {
    expect(stripDecorations(written)).toBe(stripped);
  });

  it.each([
    ['Dr. Who', 'drwho'],
    ['José', 'jose'],
    ['  PEGGY  sue ', 'peggysue'],
    ['???', '???'],
  ])('key of %s is %s', (name, key) => {
    expect(nameKey(name)).toBe(key);
  });

  it.each([
    ['Dr. Who', 'dw'],
    ['TheManHimself', 'tmh'],
    ['i_use_underscores', 'iuu'],
    ['Almost50', 'a50'],
    ['Zeke', null],
  ])('acronym of %s is %s', (name, acronym) => {
    expect(acronymOf(name)).toBe(acronym);
  });

  it.each([
    ["Midnight's Sorrow", ['mss', 'ms']],
    ['mario and lugi', ['mal', 'ml']],
    ['Mario & Luigi', ['ml', 'mal']],
    ['Dr. Who', ['dw']],
    ['Zeke', []],
  ])('initialisms of %s are %s', (name, acronyms) => {
    expect(acronymsOf(name)).toEqual(acronyms);
  });
});
