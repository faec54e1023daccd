import type { PostViolation } from '../model/action.js';
import type { BodyNode } from '../model/body.js';
import type { EditMarker } from '../model/post.js';
import type { Roster } from '../model/roster.js';
import type { Ruleset } from '../rules/ruleset.js';
import { nonEnglishLanguage } from './language.js';
import { lineText, ownLines, type OwnLine } from './own-text.js';
import { keywordTargets } from './keyword-targets.js';
import { findActions, type TextSpan } from './vote-grammar.js';

/**
 * What a post does that some rulesets punish: images, links out of the forum, code,
 * edits, writing in another language. Only the poster's own body counts: whatever sits
 * inside a quote (or a signature) was posted by someone else or by the forum. Every
 * violation is reported; the ruleset decides what it costs.
 */
export interface RuleCheckInput {
  body: readonly BodyNode[];
  edit: EditMarker | null;
}

/** Text already read for votes, so the language check need not read it again. */
export interface SeenText {
  lines: readonly OwnLine[];
  /** Vote lines (counted or not) to leave out of the language check. */
  voteSpans: readonly TextSpan[];
}

/** Longest code excerpt kept as evidence. */
const MAX_DETAIL = 80;
const URL = /\b(?:https?:\/\/|www\.)\S+/giu;

export function ruleViolations(
  post: RuleCheckInput,
  roster: Roster,
  ruleset: Ruleset,
  seen?: SeenText,
): PostViolation[] {
  const out: PostViolation[] = [];
  const images = new Set<string>();
  const links = new Set<string>();

  // Iterative: trees from hostile HTML can be deeper than the call stack.
  const pending: BodyNode[] = [];
  const enter = (nodes: readonly BodyNode[]): void => {
    for (let i = nodes.length - 1; i >= 0; i--) pending.push(nodes[i]!);
  };
  enter(post.body);
  while (pending.length > 0) {
    const node = pending.pop()!;
    switch (node.t) {
      case 'quote':
      case 'signature':
      case 'text':
      case 'br':
      case 'smilie':
      case 'unreadable':
        break;
      case 'image':
        if (!images.has(node.src)) {
          images.add(node.src);
          out.push({ kind: 'image', detail: node.src });
        }
        break;
      case 'code':
        out.push({ kind: 'code', detail: excerpt(node.text) });
        break;
      case 'link':
        if (node.kind === 'external' && !links.has(node.href)) {
          links.add(node.href);
          out.push({ kind: 'external-link', detail: node.href });
        }
        enter(node.children);
        break;
      default:
        enter(node.children);
    }
  }

  if (post.edit) out.push({ kind: 'edit', detail: post.edit.text.trim() || 'edited' });

  // Language detection is the one costly check (n-gram scoring of the whole post): run it
  // only for rulesets that care, unlike the cheap checks that are always reported.
  if (ruleset.violations['non-english'] !== 'ignore') {
    const lines = seen?.lines ?? ownLines(post.body);
    const voteSpans = seen?.voteSpans ?? voteSpansOf(lines, ruleset);
    const language = nonEnglishLanguage(languageText(lines, voteSpans, roster));
    if (language) out.push({ kind: 'non-english', detail: language });
  }
  return out;
}

function voteSpansOf(lines: readonly OwnLine[], ruleset: Ruleset): TextSpan[] {
  const read = findActions(lines, ruleset.votes, keywordTargets(ruleset));
  return [...read.actions, ...read.rejected].map((a) => a.span);
}

/** Own text without vote lines, URLs and player names: what is left is the poster's language. */
function languageText(lines: readonly OwnLine[], voteSpans: readonly TextSpan[], roster: Roster): string {
  const byLine = new Map<number, TextSpan[]>();
  for (const s of voteSpans) {
    const list = byLine.get(s.line);
    if (list) list.push(s);
    else byLine.set(s.line, [s]);
  }
  const kept = lines.map((line, index) => {
    const text = lineText(line);
    const spans = (byLine.get(index) ?? []).sort((a, b) => a.start - b.start);
    let out = '';
    let pos = 0;
    for (const s of spans) {
      if (s.start > pos) out += text.slice(pos, s.start);
      pos = Math.max(pos, s.end);
    }
    return out + text.slice(pos);
  });
  return withoutNames(kept.join('\n').replace(URL, ' '), roster);
}

function withoutNames(text: string, roster: Roster): string {
  const names = roster
    .flatMap((s) => [s.name, ...s.aliases, ...s.formerNames])
    .filter((n) => n.trim() !== '')
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
  if (names.length === 0) return text;
  return text.replace(new RegExp(names.join('|'), 'giu'), ' ');
}

function excerpt(code: string): string {
  const t = code
    .slice(0, MAX_DETAIL * 4)
    .trim()
    .replace(/\s+/gu, ' ');
  return t.length > MAX_DETAIL ? `${t.slice(0, MAX_DETAIL)}…` : t;
}
