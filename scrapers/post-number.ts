/** "#1,326", "Reply #12", "12" -> 12; null when the text holds no number. */
export function postNumber(s: string | null | undefined): number | null {
  const m = /#?\s*(\d[\d,.\u00a0 ]*)/.exec(s ?? '');
  if (!m) return null;
  const n = Number(m[1]!.replace(/[,.\u00a0 ]/g, ''));
  return Number.isInteger(n) && n > 0 ? n : null;
}
