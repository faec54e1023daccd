import { describe, expect, it } from 'vitest';
import { whyNoPosts } from '../../src/thread/empty-page.js';

const page = (body: string) => `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`;
const lorem = 'The forum changed its theme and this text is what a page with a layout we do not know shows. '.repeat(
  10,
);

describe('why a page without posts has none (no engine knowledge needed)', () => {
  it('a password input is a login wall', () => {
    expect(whyNoPosts(page('<form><input name="u"><input type="password" name="p"></form>'))).toBe('login-wall');
    expect(whyNoPosts(page('<form><input type="PASSWORD" name="p"></form>'))).toBe('login-wall');
  });

  it('an empty app root next to scripts is a script shell', () => {
    expect(whyNoPosts(page('<div id="app"></div><script src="/bundle.js"></script>'))).toBe('script-shell');
    expect(whyNoPosts(page('<div id="__next"><script>1</script></div><script src="/b.js"></script>'))).toBe(
      'script-shell',
    );
  });

  it('a <noscript> notice on a page with next to no text is a script shell', () => {
    expect(
      whyNoPosts(page('<noscript>This board needs JavaScript.</noscript><p>Loading…</p><script src="/b.js"></script>')),
    ).toBe('script-shell');
  });

  it('a full page with a <noscript> banner is not a shell: its layout is just not understood', () => {
    expect(
      whyNoPosts(page(`<noscript>JavaScript is disabled.</noscript><main>${lorem}</main><script>1</script>`)),
    ).toBeNull();
  });

  it('a page without scripts is never a shell', () => {
    expect(whyNoPosts(page('<div id="app"></div><noscript>x</noscript>'))).toBeNull();
  });

  it('an error page is neither', () => {
    expect(whyNoPosts(page('<h1>The requested thread could not be found.</h1>'))).toBeNull();
  });
});
