/**
 * A votal's text with `\n` line ends. A browser's text box sends CRLF, so the same draft
 * comes back "changed" unless both sides are compared (and stored) this way.
 */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Whether two votal texts differ in more than their line ends. */
export function sameVotalText(a: string, b: string): boolean {
  return normaliseLineEndings(a) === normaliseLineEndings(b);
}
