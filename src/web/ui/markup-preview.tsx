import type { Child } from 'hono/jsx';
import { safeColor, safeHref } from './safe-url.js';

/**
 * The forum-look preview of a votal draft: BBCode (or the Markdown Discourse and NodeBB
 * use) turned into HTML by our own small renderer. Every piece of text ends up as a JSX
 * text child, so hono/jsx escapes it; links are kept only when they are http(s), colours
 * only when they are plainly colours (and applied by script, since the CSP forbids style
 * attributes). Nothing here ever produces raw HTML from the draft.
 */

export type MarkupNode =
  | { t: 'text'; text: string }
  | { t: 'br' }
  | { t: 'tag'; name: string; arg: string | null; children: MarkupNode[] }
  | { t: 'raw'; name: string; text: string };

/** Tags the preview understands; anything else stays text, as a forum shows an unknown tag. */
const KNOWN = new Set([
  'b',
  'i',
  'u',
  's',
  'strike',
  'url',
  'color',
  'size',
  'quote',
  'spoiler',
  'list',
  '*',
  'center',
  'right',
  'left',
  'img',
]);
/** Tags whose content is shown as typed. */
const VERBATIM = new Set(['plain', 'noparse', 'nobbc', 'code', 'icode']);

const TAG = /\[(\/?)([a-z*]+)(?:=("[^"\]]*"|'[^'\]]*'|[^\]]*))?\]/gi;

/** BBCode source -> a tree. Unclosed tags close at the end; stray closers are text. */
export function parseBbcode(source: string): MarkupNode[] {
  const root: MarkupNode[] = [];
  const stack: { name: string; node: Extract<MarkupNode, { t: 'tag' }> }[] = [];
  const top = (): MarkupNode[] => stack.at(-1)?.node.children ?? root;
  const pushText = (text: string): void => {
    const parts = text.split(/\r?\n/);
    parts.forEach((part, i) => {
      if (i > 0) top().push({ t: 'br' });
      if (part) top().push({ t: 'text', text: part });
    });
  };

  let at = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(source); m; m = TAG.exec(source)) {
    const [whole, slash, rawName, rawArg] = m;
    const name = rawName!.toLowerCase();
    if (m.index > at) pushText(source.slice(at, m.index));
    at = m.index + whole.length;
    if (!slash && VERBATIM.has(name)) {
      const close = new RegExp(`\\[/${name}\\]`, 'i');
      const rest = source.slice(at);
      const end = close.exec(rest);
      const text = end ? rest.slice(0, end.index) : rest;
      top().push({ t: 'raw', name, text });
      at += end ? end.index + end[0].length : rest.length;
      TAG.lastIndex = at;
      continue;
    }
    if (!KNOWN.has(name)) {
      pushText(whole);
      continue;
    }
    if (slash) {
      const open = stack.findLastIndex((s) => s.name === name);
      if (open === -1) {
        pushText(whole);
        continue;
      }
      stack.length = open;
      continue;
    }
    if (name === '*') {
      // A list item runs to the next item or the end of the list.
      if (stack.at(-1)?.name === '*') stack.pop();
      const inList = stack.at(-1)?.name === 'list';
      if (!inList) {
        pushText(whole);
        continue;
      }
    }
    const arg = rawArg === undefined ? null : rawArg.replace(/^["']|["']$/g, '');
    const node: Extract<MarkupNode, { t: 'tag' }> = { t: 'tag', name, arg, children: [] };
    top().push(node);
    if (name !== 'img') stack.push({ name, node });
    else {
      // [img]src[/img]: the source is the content.
      const end = /\[\/img\]/i.exec(source.slice(at));
      const src = end ? source.slice(at, at + end.index) : '';
      node.arg = src;
      at += end ? end.index + end[0].length : 0;
      TAG.lastIndex = at;
    }
  }
  if (at < source.length) pushText(source.slice(at));
  return root;
}

/** The Markdown a votal uses (bold, italic, links, "- " lists, backslash escapes) -> the same tree. */
function parseMarkdown(source: string): MarkupNode[] {
  const out: MarkupNode[] = [];
  const lines = source.split(/\r?\n/);
  let list: Extract<MarkupNode, { t: 'tag' }> | null = null;
  lines.forEach((line, i) => {
    if (/^<!--.*-->$/.test(line.trim())) return; // the publication marker is invisible on the forum
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (item) {
      if (!list) {
        list = { t: 'tag', name: 'list', arg: null, children: [] };
        out.push(list);
      }
      list.children.push({ t: 'tag', name: '*', arg: null, children: inlineMarkdown(item[1]!) });
      return;
    }
    list = null;
    out.push(...inlineMarkdown(line));
    if (i < lines.length - 1) out.push({ t: 'br' });
  });
  return out;
}

function inlineMarkdown(text: string): MarkupNode[] {
  const out: MarkupNode[] = [];
  const INLINE = /\\([\\`*_{}[\]()#+\-.!|<>~@:])|\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let at = 0;
  let buf = '';
  for (let m = INLINE.exec(text); m; m = INLINE.exec(text)) {
    buf += text.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[1] !== undefined) {
      buf += m[1];
      continue;
    }
    if (buf) out.push({ t: 'text', text: buf });
    buf = '';
    if (m[2] !== undefined) out.push({ t: 'tag', name: 'b', arg: null, children: inlineMarkdown(m[2]) });
    else if (m[3] !== undefined) out.push({ t: 'tag', name: 'i', arg: null, children: inlineMarkdown(m[3]) });
    else out.push({ t: 'tag', name: 'url', arg: m[5]!, children: inlineMarkdown(m[4]!) });
  }
  buf += text.slice(at);
  if (buf) out.push({ t: 'text', text: buf });
  return out;
}

function renderNodes(nodes: readonly MarkupNode[]): Child[] {
  return nodes.map((n) => renderNode(n));
}

function renderNode(n: MarkupNode): Child {
  switch (n.t) {
    case 'text':
      return n.text;
    case 'br':
      return <br />;
    case 'raw':
      return n.name === 'code' ? (
        <pre class="bb-code">
          <code>{n.text}</code>
        </pre>
      ) : (
        <span class="bb-plain">{n.text}</span>
      );
    case 'tag': {
      const kids = renderNodes(n.children);
      switch (n.name) {
        case 'b':
          return <strong>{kids}</strong>;
        case 'i':
          return <em>{kids}</em>;
        case 'u':
          return <u>{kids}</u>;
        case 's':
        case 'strike':
          return <s>{kids}</s>;
        case 'center':
        case 'left':
        case 'right':
          return <div class={`bb-align-${n.name}`}>{kids}</div>;
        case 'size':
          return <span class="bb-size">{kids}</span>;
        case 'color': {
          const color = safeColor(n.arg);
          return color ? (
            <span class="bb-color" data-color={color}>
              {kids}
            </span>
          ) : (
            <span>{kids}</span>
          );
        }
        case 'url': {
          const href = safeHref(n.arg ?? plain(n.children));
          return href ? (
            <a href={href} rel="nofollow noopener noreferrer" target="_blank">
              {kids.length ? kids : href}
            </a>
          ) : (
            <span>{kids}</span>
          );
        }
        case 'quote':
          return (
            <blockquote class="bb-quote">
              {n.arg ? <cite>{n.arg.replace(/,\s*post:.*$/i, '')} said:</cite> : null}
              <div>{kids}</div>
            </blockquote>
          );
        case 'spoiler':
          return (
            <details class="bb-spoiler">
              <summary>{n.arg ? `Spoiler: ${n.arg}` : 'Spoiler'}</summary>
              {kids}
            </details>
          );
        case 'list':
          return <ul class="bb-list">{renderNodes(n.children.filter((c) => c.t === 'tag' && c.name === '*'))}</ul>;
        case '*':
          return <li>{kids}</li>;
        case 'img': {
          // Images are not loaded in the preview (img-src 'self'); the address is shown.
          return <span class="bb-img">[image: {n.arg ?? ''}]</span>;
        }
        default:
          return <span>{kids}</span>;
      }
    }
  }
}

function plain(nodes: readonly MarkupNode[]): string {
  return nodes
    .map((n) => (n.t === 'text' ? n.text : n.t === 'raw' ? n.text : n.t === 'tag' ? plain(n.children) : '\n'))
    .join('');
}

/** The draft as the forum would show it. */
export function MarkupPreview(props: { source: string; dialect: string }) {
  const tree = props.dialect === 'markdown' ? parseMarkdown(props.source) : parseBbcode(props.source);
  return <div class="forum-body">{renderNodes(tree)}</div>;
}
