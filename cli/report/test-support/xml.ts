// A strict little XML reader for the reporter tests: it accepts only well-formed XML (balanced
// tags, quoted and unique attributes, known entities, no raw `<` or `&` in text, no characters
// XML forbids), which is what CI readers of JUnit files and browsers in XHTML mode require.

/** One element: its name, attributes and children (elements or decoded text). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(raw: string, at: number): string {
  if (raw.includes('<')) throw new Error(`raw "<" in text or attribute near offset ${at}`);
  if (FORBIDDEN.test(raw)) throw new Error(`a character XML forbids near offset ${at}`);
  const decoded = raw.replace(/&([^;\s&]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error(`bare "&" near offset ${at}`);
    if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
    if (/^#x[0-9a-f]+$/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
    const value = ENTITIES[name];
    if (value === undefined) throw new Error(`unknown entity "&${name};" near offset ${at}`);
    return value;
  });
  if (FORBIDDEN.test(decoded)) throw new Error(`a character reference XML forbids near offset ${at}`);
  return decoded;
}

/** Parses a whole document and returns its root element; throws on anything not well-formed. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const skipMisc = (): void => {
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i)) as RegExpExecArray;
      i += ws[0].length;
      if (text.startsWith('<?', i)) i = expectIndex(text.indexOf('?>', i), '?>') + 2;
      else if (text.startsWith('<!--', i)) i = expectIndex(text.indexOf('-->', i), '-->') + 3;
      else if (/^<!DOCTYPE/i.test(text.slice(i))) i = expectIndex(text.indexOf('>', i), '>') + 1;
      else return;
    }
  };
  const expectIndex = (index: number, what: string): number => {
    if (index === -1) throw new Error(`unterminated construct: missing "${what}"`);
    return index;
  };
  const element = (): XmlElement => {
    if (text[i] !== '<') throw new Error(`expected an element at offset ${i}`);
    i++;
    const name = NAME.exec(text.slice(i))?.[0];
    if (!name) throw new Error(`bad element name at offset ${i}`);
    i += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const ws = /^\s*/.exec(text.slice(i)) as RegExpExecArray;
      i += ws[0].length;
      if (text.startsWith('/>', i)) {
        i += 2;
        return { name, attributes, children: [] };
      }
      if (text[i] === '>') {
        i++;
        break;
      }
      if (ws[0].length === 0)
        throw new Error(`attributes of <${name}> need whitespace between them (offset ${i})`);
      const attr = NAME.exec(text.slice(i))?.[0];
      if (!attr) throw new Error(`bad attribute in <${name}> at offset ${i}`);
      i += attr.length;
      const m = /^\s*=\s*(["'])/.exec(text.slice(i));
      if (!m) throw new Error(`attribute ${attr} of <${name}> is not quoted (offset ${i})`);
      i += m[0].length;
      const end = expectIndex(text.indexOf(m[1] as string, i), m[1] as string);
      if (attr in attributes) throw new Error(`duplicate attribute ${attr} in <${name}>`);
      attributes[attr] = decode(text.slice(i, end), i);
      i = end + 1;
    }
    const children: XmlElement['children'] = [];
    for (;;) {
      if (i >= text.length) throw new Error(`<${name}> is never closed`);
      if (text.startsWith('</', i)) {
        const close = NAME.exec(text.slice(i + 2))?.[0];
        if (close !== name) throw new Error(`</${close ?? '?'}> closes <${name}> at offset ${i}`);
        i += 2 + close.length;
        const rest = /^\s*>/.exec(text.slice(i));
        if (!rest) throw new Error(`bad closing tag of <${name}>`);
        i += rest[0].length;
        return { name, attributes, children };
      }
      if (text.startsWith('<!--', i)) {
        i = expectIndex(text.indexOf('-->', i), '-->') + 3;
      } else if (text[i] === '<') {
        children.push(element());
      } else {
        const next = text.indexOf('<', i);
        const end = next === -1 ? text.length : next;
        children.push(decode(text.slice(i, end), i));
        i = end;
      }
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i !== text.length) throw new Error(`content after the root element at offset ${i}`);
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
