/**
 * Links built from forum data (permalinks, thread URLs, links in a votal) go into `href`
 * only when they are plain web addresses. hono/jsx escapes attribute text, but an escaped
 * `javascript:` URL is still a script URL: the scheme itself must be checked.
 */
export function safeHref(url: string | null | undefined, base?: string): string | null {
  if (!url) return null;
  const text = url.trim();
  if (text === '' || /[\u0000-\u001f\u007f]/.test(text)) return null;
  let parsed: URL;
  try {
    parsed = base ? new URL(text, base) : new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return parsed.href;
}

/** A CSS colour as a BBCode `[color=]` gives it, when it is plainly one: `#abc`, `#aabbcc` or a name. */
export function safeColor(color: string | null | undefined): string | null {
  if (!color) return null;
  const c = color.trim().replace(/^["']|["']$/g, '');
  return /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(c) || /^[a-z]{3,20}$/i.test(c) ? c.toLowerCase() : null;
}
