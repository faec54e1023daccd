import type { GmEvent } from '../../model/event.js';

/** A GM event in a few words, as the GM pages list it. */
export function describeEvent(e: GmEvent): string {
  const at = 'at' in e && e.at !== undefined ? ` after post ${e.at}` : 'time' in e && e.time ? ` at ${e.time}` : '';
  switch (e.kind) {
    case 'day-start':
      return `Day ${e.day} starts${at}`;
    case 'day-end':
      return `Day ends${at}`;
    case 'kill':
    case 'revive':
    case 'modkill':
      return `${e.kind} ${e.player}${at}`;
    case 'replace':
      return `${e.player} replaced by ${e.by}${at}`;
    case 'weight':
      return `${e.player}'s vote weighs ${e.weight}${e.hidden ? ' (hidden)' : ''}${at}`;
    case 'vote':
      return `manual vote: ${e.player} -> ${e.target ?? '(unvote)'}${e.hidden ? ' (hidden)' : ''}${at}`;
    case 'correct':
      return `post ${e.post} read as ${e.target === null ? '(ignored)' : `a vote for ${e.target}`}`;
    case 'decide':
      return `decision: ${e.eliminated.length ? e.eliminated.join(', ') : 'nobody'} eliminated${at}`;
    case 'deadline':
      return `deadline ${e.time}`;
    default:
      return `${e.kind}${'player' in e ? ` ${String(e.player)}` : ''}${at}`;
  }
}
