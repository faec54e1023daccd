import { readFileSync } from 'node:fs';
import { GmEvents, type GmEvent } from '../model/event.js';
import { EventsError } from './source-error.js';
import { readYaml } from './yaml-source.js';

/** Validates a GM events YAML list (`votal count --events FILE`); errors name file:line:column. */
export function parseEvents(text: string, fileName: string): GmEvent[] {
  // A file with nothing in it (or only comments) is an empty log, not an error.
  const result = readYaml(GmEvents.nullable(), text, fileName);
  if (!result.ok) throw new EventsError(result.problems);
  return result.value ?? [];
}

export function loadEvents(path: string): GmEvent[] {
  return parseEvents(readFileSync(path, 'utf8'), path);
}
