// Where things fall on the first screen of an HTML report, estimated from its DOM: a browser
// is not needed (CI machines start without one), and the estimate errs on the tall side, so a
// test that passes with it passes in a browser too. Each line box (heading, paragraph, list item,
// summary, table row, preformatted line) takes its own line height times the lines its text
// wraps to; whatever sits inside a closed <details> (but its summary) takes no room.
import { parseHTML } from 'linkedom';

/** A window of 1280 x 800 CSS pixels: the report's column is 70rem of 14px text. */
export const SCREEN = { height: 800, charsPerLine: 110, lineHeight: 21 };

const LINE_BOXES = new Set(['H1', 'H2', 'H3', 'H4', 'P', 'LI', 'SUMMARY', 'TR', 'PRE', 'NAV']);
const HEIGHT: Record<string, { line: number; margin: number }> = {
  H1: { line: 34, margin: 8 },
  H2: { line: 28, margin: 26 },
  H3: { line: 24, margin: 20 },
  H4: { line: 21, margin: 12 },
  PRE: { line: 19, margin: 24 },
};

interface DomElement {
  tagName: string;
  id: string;
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentElement: DomElement | null;
  hasAttribute(name: string): boolean;
}
type DomNode = DomElement | { nodeType: number; textContent: string | null };

const isElement = (n: DomNode): n is DomElement => n.nodeType === 1;

/** Hidden when inside a closed <details> and not in that details' own summary. */
function hidden(el: DomElement): boolean {
  let child: DomElement = el;
  for (let p = el.parentElement; p; child = p, p = p.parentElement) {
    if (p.tagName === 'DETAILS' && !p.hasAttribute('open') && child.tagName !== 'SUMMARY') return true;
  }
  return false;
}

/** The text a line box shows itself: its text and inline children, not nested line boxes. */
function ownText(el: DomElement): string {
  let text = '';
  for (const n of Array.from(el.childNodes)) {
    if (!isElement(n)) text += n.textContent ?? '';
    else if (!LINE_BOXES.has(n.tagName) && !['DETAILS', 'UL', 'OL', 'TABLE', 'STYLE'].includes(n.tagName))
      text += ownText(n);
  }
  return text;
}

function height(el: DomElement): number {
  const h = HEIGHT[el.tagName] ?? { line: SCREEN.lineHeight, margin: 6 };
  const text = el.tagName === 'NAV' ? (el.textContent ?? '') : ownText(el);
  const lines =
    el.tagName === 'PRE'
      ? text.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil(l.length / SCREEN.charsPerLine)), 0)
      : Math.max(1, Math.ceil(text.trim().length / SCREEN.charsPerLine));
  return lines * h.line + h.margin;
}

/** The line boxes of a page in document order, each with its estimated top and bottom. */
export function layout(html: string): { el: DomElement; top: number; bottom: number }[] {
  const { document } = parseHTML(html);
  // A <nav>'s items sit on one line (the report's CSS makes them inline): the nav is one box.
  const all = Array.from(
    document.querySelectorAll('h1,h2,h3,h4,p,li,summary,tr,pre,nav'),
  ) as unknown as DomElement[];
  const boxes = all.filter(
    (el) => el.tagName === 'NAV' || el.parentElement?.parentElement?.tagName !== 'NAV',
  );
  let y = 24; // the body's top margin
  const out: { el: DomElement; top: number; bottom: number }[] = [];
  for (const el of boxes) {
    if (hidden(el)) continue;
    const h = height(el);
    out.push({ el, top: y, bottom: y + h });
    y += h;
  }
  return out;
}

export { parseHTML };
