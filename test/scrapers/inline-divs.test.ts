import { describe, expect, it } from 'vitest';
import { parseFragment } from '../../scrapers/fragment.js';
import { adapterOf } from '../../scrapers/identify.js';
import { plainText } from '../../src/model/body.js';
import { Roster } from '../../src/model/roster.js';
import { readPost } from '../../src/parse/read-post.js';
import { loadRuleset } from '../../src/rules/load-ruleset.js';

/**
 * MafiaScum's phpBB renders [color] and [b] as `<div style="display:inline;...">`: on the
 * page they run on with the text beside them, so the body reads them without a gap.
 */
const markup = adapterOf('phpbb').descriptor.body;
const bodyOf = (html: string) => parseFragment(html, markup, 'https://forum.mafiascum.net/viewtopic.php');

describe('inline divs run on with their neighbours', () => {
  // Mini 1655, t=61070 post 2309 by the moderator Aeronaut (github.com/Computational-Mafia/donbot
  // data/posts/61070.jsonl at 739243d): the count's title coloured letter by letter.
  const title =
    '<div style="display:inline;font-weight:bold"><div style="font-size: 300%; line-height: normal; display: inline"><div style="display:inline;color:#ff0000">V</div><div style="display:inline;color:#eb3a13">o</div><div style="display:inline;color:#d77127">t</div><div style="display:inline;color:#c4a23a">e</div><div style="display:inline;color:#b0cb4e">c</div><div style="display:inline;color:#9ce962">o</div><div style="display:inline;color:#89fa75">u</div><div style="display:inline;color:#75fe89">n</div><div style="display:inline;color:#62f59c">t</div> <div style="display:inline;color:#3abcc4">2</div><div style="display:inline;color:#2790d7">.</div><div style="display:inline;color:#135ceb">9</div></div></div><br>';

  it('a word coloured letter by letter is one word', () => {
    expect(plainText(bodyOf(title)).trim()).toBe('Votecount 2.9');
  });

  it('so the letters are not read as a vote with no one readable', () => {
    const roster = Roster.parse([{ name: 'Ozgin' }, { name: 'Oddmusic' }, { name: 'T S O' }]);
    const reading = readPost({ body: bodyOf(title), edit: null }, roster, loadRuleset('mafiascum-majority'));
    expect(reading.actions).toEqual([]);
  });

  it('a struck name ([s] as an inline-flex div) stays in its line, struck', () => {
    // Mini 1772, t=65639 post 52 by the moderator Aquanim (github.com/Computational-Mafia/donbot
    // data/posts/65639.jsonl at 739243d): the full vote count keeps withdrawn votes struck.
    const html =
      '<div style="display:inline;font-weight:bold">Creature (2) - </div> GuyFawkes, chilledtea, <div style="display:inline-flex;text-decoration:line-through">BlueTrin</div><br>';
    const body = bodyOf(html);
    expect(plainText(body).trim()).toBe('Creature (2) -  GuyFawkes, chilledtea, BlueTrin');
    expect(JSON.stringify(body)).toContain('{"t":"strike","children":[{"t":"text","text":"BlueTrin"}]}');
  });

  it('a div shown as a block still stands apart from the text beside it', () => {
    // The same post: the centred block around the count.
    const html = 'Mod Notes:<div style="text-align:center">Day 2 ends</div>soon';
    expect(plainText(bodyOf(html))).toBe('Mod Notes:\nDay 2 ends\nsoon');
  });
});
