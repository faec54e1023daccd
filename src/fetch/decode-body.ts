import { decodeWindows1252 } from './windows-1252.js';

/**
 * Turns response bytes into text the way a browser would, in order: byte-order mark,
 * charset in Content-Type, <meta charset> / <meta http-equiv> in the first 4 KiB,
 * else UTF-8. Labels follow the WHATWG Encoding Standard (so "iso-8859-1" means
 * windows-1252). An unknown label is skipped, not fatal.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  const encoding = sniffBom(bytes) ?? knownEncoding(charsetParam(contentType)) ?? metaEncoding(bytes) ?? 'utf-8';
  if (encoding === 'windows-1252') return decodeWindows1252(bytes);
  return new TextDecoder(encoding).decode(bytes);
}

function sniffBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

function charsetParam(contentType: string | null): string | null {
  const match = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType) : null;
  return match?.[1] ?? null;
}

function metaEncoding(bytes: Uint8Array): string | null {
  // ASCII-compatible prefix is enough to find the declaration.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 4096)).toString('latin1');
  const match = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  const encoding = knownEncoding(match?.[1] ?? null);
  // A page whose meta tag was readable as ASCII is not UTF-16; browsers use UTF-8 then.
  return encoding?.startsWith('utf-16') ? 'utf-8' : encoding;
}

/** The canonical encoding name for a label, or null when TextDecoder does not know it. */
function knownEncoding(label: string | null): string | null {
  if (!label) return null;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return null;
  }
}
