/**
 * Text from the forum (player names, snippets) written into a votal must not become
 * markup. BBCode has no escape that every engine honours, so brackets become look-alikes;
 * a number followed by ")" would turn into a smiley ("8)") on many boards, so a
 * zero-width joiner keeps them apart.
 */
export function escapeBbcode(text: string): string {
  return text
    .replace(/\[/g, '\uFF3B')
    .replace(/\]/g, '\uFF3D')
    .replace(/([0-9:;8BXx])\)/g, '$1\u200D)')
    .replace(/[\r\n]+/g, ' ');
}

/** Markdown (Discourse, NodeBB): backslash every character that could start formatting. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~@:]/g, '\\$&').replace(/[\r\n]+/g, ' ');
}

/** A URL inside [url=...]: no brackets or quotes that could close the tag. */
export function escapeBbcodeUrl(url: string): string {
  return url.replace(/[\[\]"'\s]/g, (c) => encodeURIComponent(c));
}
