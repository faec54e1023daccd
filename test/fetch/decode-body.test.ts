import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/fetch/decode-body.js';

describe('decodeBody', () => {
  it('windows-1252 maps 0x80-0x9F to the WHATWG table (Node 20 TextDecoder does not)', () => {
    const decoded = decodeBody(
      Uint8Array.from([0x80, 0x81, 0x8a, 0x93, 0x94, 0x96, 0x97, 0x99, 0x9f]),
      'text/html; charset=windows-1252',
    );
    expect(decoded).toBe('€\u0081Š“”–—™Ÿ');
  });

  it('windows-1252 leaves every other byte as its Latin-1 code point', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i).filter((b) => b < 0x80 || b > 0x9f);
    const decoded = decodeBody(bytes, 'text/html; charset=latin1');
    expect([...decoded].map((c) => c.codePointAt(0))).toEqual([...bytes]);
  });

  it('a byte-order mark wins over the header', () => {
    expect(decodeBody(Uint8Array.from([0xef, 0xbb, 0xbf, 0xc3, 0xa9]), 'text/html; charset=windows-1252')).toBe('é');
  });

  it('other single-byte charsets decode through TextDecoder', () => {
    expect(decodeBody(Uint8Array.from([0xc0, 0xeb, 0xe8, 0xf1, 0xe0]), 'text/html; charset=windows-1251')).toBe(
      'Алиса',
    );
  });

  it('an unknown charset label falls back to the next clue, then UTF-8', () => {
    expect(decodeBody(Buffer.from('Zoë'), 'text/html; charset=x-made-up')).toBe('Zoë');
  });

  it('a quoted charset parameter is understood', () => {
    expect(decodeBody(Uint8Array.from([0xe9]), 'text/html; charset="ISO-8859-1"')).toBe('é');
  });
});
