/**
 * Invisible formatting controls in text from the forum (names, snippets, titles): bidi
 * embeddings and overrides (U+202A-202E), isolates (U+2066-2069), the left-to-right and
 * right-to-left marks (U+200E, U+200F) and the Arabic letter mark (U+061C). A name holding
 * U+202E shows everything after it reversed, so "Bob" can be made to read as another
 * player's name; none of them is part of a name a player types. Stripped wherever forum
 * text is shown: votal dialects, web pages and their fragments, webhooks.
 */
const INVISIBLE_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** `text` without bidi and invisible formatting controls. */
export function withoutInvisibleControls(text: string): string {
  return text.replace(INVISIBLE_CONTROLS, '');
}

/** Whether `text` holds any of them (tests, and callers that avoid a copy). */
export function hasInvisibleControls(text: string): boolean {
  INVISIBLE_CONTROLS.lastIndex = 0;
  const found = INVISIBLE_CONTROLS.test(text);
  INVISIBLE_CONTROLS.lastIndex = 0;
  return found;
}
