import { readFileSync } from 'node:fs';
import { GmEvents, type GmEvent } from '../model/event.js';
import { EventsError } from './source-error.js';
import { readYaml } from './yaml-source.js';

/** What an events file's fields hold, said beside a missing or wrong one. */
const EVENT_WORDS = {
  item: 'event',
  fields: {
    kind: 'what happened: day-start, kill, replace...',
    day: "the Day's number",
    at: 'the number of the post it applies after',
    time: 'when it applies, ISO 8601',
    player: "the player's name",
    by: "the new player's name",
    target: 'the player the vote is for, or null for no vote',
    post: "the post's number",
    weight: 'how much the vote counts',
    status: 'arrested, poisoned, abroad, hindered or clear',
    role: 'the role, as the ruleset names it',
    eliminated: 'the players the GM eliminates',
    reason: 'why, in a few words',
  },
} as const;

/** Validates a GM events YAML list (`votal count --events FILE`); errors name file:line:column. */
export function parseEvents(text: string, fileName: string): GmEvent[] {
  // A file with nothing in it (or only comments) is an empty log, not an error.
  const result = readYaml(GmEvents.nullable(), text, fileName, EVENT_WORDS);
  if (!result.ok) throw new EventsError(result.problems);
  return result.value ?? [];
}

export function loadEvents(path: string): GmEvent[] {
  return parseEvents(readFileSync(path, 'utf8'), path);
}
