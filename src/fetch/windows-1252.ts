/**
 * windows-1252 decoding by hand. Node 20.18.3+ decodes windows-1252 (and its aliases
 * latin1, iso-8859-1, ascii) as plain Latin-1, so 0x80-0x9F come out as C1 controls
 * instead of € ‚ “ ” – — ... (nodejs/node#60888). Old forums serve exactly those
 * smart quotes and dashes.
 */

/** WHATWG index-windows-1252 for 0x80..0x9F; the other bytes equal their code point. */
const HIGH_C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
] as const;

export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const codes = Array.from(bytes.subarray(start, start + CHUNK), (b) =>
      b >= 0x80 && b <= 0x9f ? (HIGH_C1[b - 0x80] as number) : b,
    );
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}
