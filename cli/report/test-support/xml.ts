// A strict XML reader for the reporter tests, over saxes (a conforming non-validating parser):
// it accepts only well-formed XML (balanced tags, quoted and unique attributes, known entities,
// no raw `<` or `&` in text, no characters XML forbids, one root), which is what CI readers of
// JUnit files and browsers in XHTML mode require.
import { SaxesParser } from 'saxes';

/** One element: its name, attributes and children (elements or decoded text). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

/** Parses a whole document and returns its root element; throws on anything not well-formed. */
export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser();
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...tag.attributes }, children: [] };
    const parent = open.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    open.push(element);
  });
  parser.on('closetag', () => void open.pop());
  parser.on('text', (data) => {
    const parent = open.at(-1);
    if (parent) parent.children.push(data);
  });
  parser.write(text).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element named `name` below `node` (`*`: every element), in document order. */
export function findAll(node: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of node.children) {
    if (typeof child === 'string') continue;
    if (name === '*' || child.name === name) out.push(child);
    out.push(...findAll(child, name));
  }
  return out;
}

/** The concatenated text below an element. */
export function textOf(node: XmlElement): string {
  return node.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}
