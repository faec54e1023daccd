import { findSlot, nameKey } from './slot-names.js';
import type { GameState, VoteTarget } from './state.js';

/** No Lynch keywords match case-, space- and hyphen-insensitively ("no-lynch" = "No Lynch"). */
function looseKey(name: string): string {
  return nameKey(name).replace(/[\s-]+/g, '');
}

/** The target a written (or parsed, canonical) name means, or undefined when it means nobody. */
export function resolveTarget(state: GameState, name: string): VoteTarget | undefined {
  const { noLynch, abstain } = state.ruleset;
  if (noLynch && nameKey(noLynch.name) === nameKey(name)) return { kind: 'no-lynch' };
  if (abstain && nameKey(abstain.name) === nameKey(name)) return { kind: 'abstain' };
  const slot = findSlot(state.slots, name);
  if (slot !== undefined) return { kind: 'slot', slot };
  if (noLynch && noLynch.keywords.some((k) => looseKey(k) === looseKey(name))) return { kind: 'no-lynch' };
  if (abstain && abstain.keywords.some((k) => looseKey(k) === looseKey(name))) return { kind: 'abstain' };
  return undefined;
}

export function targetName(state: GameState, target: VoteTarget): string {
  if (target.kind === 'no-lynch') return state.ruleset.noLynch?.name ?? 'No Lynch';
  if (target.kind === 'abstain') return state.ruleset.abstain?.name ?? 'Abstain';
  return state.slots[target.slot]?.name ?? `#${target.slot}`;
}

export function targetKey(target: VoteTarget): string {
  return target.kind === 'slot' ? `slot:${target.slot}` : target.kind;
}

export function sameTarget(a: VoteTarget, b: VoteTarget): boolean {
  return targetKey(a) === targetKey(b);
}
