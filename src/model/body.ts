import { z } from 'zod';

/**
 * The engine-neutral post body. Adapters are the only code that knows a forum's HTML;
 * they turn a post into this small tree so that one vote parser and one set of rule
 * checks serve every engine ("bold inside a quote" means the same everywhere).
 */
export type BodyNode =
  | { t: 'text'; text: string }
  | { t: 'br' }
  | { t: 'block'; children: BodyNode[] }
  /**
   * `vote`: the forum's own vote markup (MafiaScum's `[vote]` BBCode, rendered bold): an
   * official vote or unvote, as the forum marks it, whatever bold talk stands around it.
   */
  | { t: 'bold'; children: BodyNode[]; vote?: true }
  | { t: 'italic' | 'underline' | 'strike'; children: BodyNode[] }
  | { t: 'color'; color: string; children: BodyNode[] }
  | { t: 'size'; size: string; children: BodyNode[] }
  | { t: 'quote'; author: string | null; children: BodyNode[] }
  | { t: 'spoiler'; title: string | null; children: BodyNode[] }
  | { t: 'code'; text: string }
  | { t: 'link'; href: string; kind: LinkKind; children: BodyNode[] }
  | { t: 'image'; src: string }
  | { t: 'smilie'; alt: string }
  | { t: 'signature'; children: BodyNode[] }
  /** What the adapter could not read of a post (hostile or broken markup): the GM reads it on the forum. */
  | { t: 'unreadable'; reason: string };

export const LinkKind = z.enum(['internal', 'external', 'mention']);
export type LinkKind = z.infer<typeof LinkKind>;

const children = (): z.ZodType<BodyNode[]> => z.array(BodyNode);

export const BodyNode: z.ZodType<BodyNode> = z.lazy(() =>
  z.discriminatedUnion('t', [
    z.object({ t: z.literal('text'), text: z.string() }),
    z.object({ t: z.literal('br') }),
    z.object({ t: z.literal('block'), children: children() }),
    z.object({ t: z.literal('bold'), children: children(), vote: z.literal(true).optional() }),
    z.object({ t: z.enum(['italic', 'underline', 'strike']), children: children() }),
    z.object({ t: z.literal('color'), color: z.string(), children: children() }),
    z.object({ t: z.literal('size'), size: z.string(), children: children() }),
    z.object({ t: z.literal('quote'), author: z.string().nullable(), children: children() }),
    z.object({ t: z.literal('spoiler'), title: z.string().nullable(), children: children() }),
    z.object({ t: z.literal('code'), text: z.string() }),
    z.object({ t: z.literal('link'), href: z.string(), kind: LinkKind, children: children() }),
    z.object({ t: z.literal('image'), src: z.string() }),
    z.object({ t: z.literal('smilie'), alt: z.string() }),
    z.object({ t: z.literal('signature'), children: children() }),
    z.object({ t: z.literal('unreadable'), reason: z.string() }),
  ]),
) as z.ZodType<BodyNode>;

export const Body = z.array(BodyNode);
export type Body = BodyNode[];

/** Plain text of a subtree, blocks and breaks as newlines (for snippets and language checks). */
export function plainText(nodes: readonly BodyNode[]): string {
  let out = '';
  const walk = (list: readonly BodyNode[]): void => {
    for (const n of list) {
      switch (n.t) {
        case 'text':
          out += n.text;
          break;
        case 'br':
          out += '\n';
          break;
        case 'code':
          out += n.text;
          break;
        case 'image':
          break;
        case 'smilie':
          out += n.alt;
          break;
        case 'unreadable':
          break;
        case 'block':
          if (out && !out.endsWith('\n')) out += '\n';
          walk(n.children);
          if (!out.endsWith('\n')) out += '\n';
          break;
        default:
          walk(n.children);
      }
    }
  };
  walk(nodes);
  return out;
}
