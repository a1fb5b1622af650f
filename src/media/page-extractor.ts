/**
 * The readable part of a web page: Readability (Firefox's reader view) over linkedom finds the
 * article and drops navigation, sidebars, footers and related links; its tree is read as
 * paragraphs. When Readability finds no article, html-to-text converts the whole body without its
 * navigation-like parts instead, so a page is never reported empty because it is not an article.
 * Pure: no network, no scripts run (linkedom executes nothing).
 */
import { Readability } from '@mozilla/readability';
import { convert } from 'html-to-text';
import { parseHTML } from 'linkedom';
import type { ExtractedPage } from './types.ts';

export interface PageExtractOptions {
  /** Most image URLs returned; default 20 (the media stage applies MEDIA_PAGE_MAX_IMAGES on top). */
  maxImages?: number;
  /** Text beyond this many characters is cut; default 100 000, the API's text limit. */
  maxTextChars?: number;
  /** Readability gives up (and the fallback runs) on pages with more elements than this; default 20 000. */
  maxElements?: number;
  /** Markup beyond this many characters is not read (and `truncated` is set); default 2 000 000. */
  maxHtmlChars?: number;
}

export interface PageExtract extends ExtractedPage {
  /** Which extractor produced the text: the article finder, or the whole-page fallback. */
  extractor: 'readability' | 'html-to-text';
  /** True when the markup was cut at `maxHtmlChars` or the text at `maxTextChars`. */
  truncated: boolean;
}

const DEFAULT_MAX_IMAGES = 20;
const DEFAULT_MAX_TEXT_CHARS = 100_000;
const DEFAULT_MAX_ELEMENTS = 20_000;
const DEFAULT_MAX_HTML_CHARS = 2_000_000;
const MAX_TITLE_CHARS = 1_000;
/**
 * Readability slows down steeply with nesting (1,000 nested elements: 20 s) and html-to-text
 * recurses; real pages stay well under these depths. Deeper pages skip Readability, and past the
 * second bound their text is read by an iterative walk instead of html-to-text.
 */
const MAX_READABILITY_DEPTH = 150;
const MAX_CONVERT_DEPTH = 500;

/** Nesting depth of a document, without recursion. */
function depthOf(root: TextNode): number {
  let deepest = 0;
  const stack: Array<[TextNode, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i]!;
      if (child.nodeType === 1) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Readability's answer is used when its article has at least this much text. */
const MIN_ARTICLE_CHARS = 80;

/** Parts of a page that are never its content, removed before the fallback converts the body. */
const NOT_CONTENT = 'script, style, noscript, template, nav, header, footer, aside, form, iframe, svg, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true]';

type Element = { getAttribute(name: string): string | null; querySelectorAll(selector: string): Iterable<Element>; innerHTML: string; remove(): void };

const TEXT_OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
  ],
};

function toText(html: string): string {
  return convert(html, TEXT_OPTIONS)
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'H1', 'H2', 'H3',
  'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL',
]);
const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IMG', 'VIDEO', 'AUDIO', 'IFRAME', 'OBJECT', 'CANVAS']);

interface TextNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNode>;
}

/**
 * The text of an element tree, a blank line between blocks (paragraphs, headings, list items):
 * a walk over the tree Readability already built, instead of serialising and re-parsing it.
 */
function textOfTree(root: TextNode): string {
  const blocks: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/[ \t\n\r\f\u00a0]+/g, ' ').trim();
    if (text !== '') blocks.push(text);
    line = '';
  };
  // An explicit stack, not recursion: a page of 10,000 nested elements must not overflow the call stack.
  const FLUSH = null;
  const stack: Array<TextNode | typeof FLUSH> = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === FLUSH) {
      flush();
      continue;
    }
    if (node.nodeType === 3) {
      line += node.textContent ?? '';
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = node.nodeName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) continue;
    if (tag === 'BR') {
      line += ' ';
      continue;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) {
      flush();
      stack.push(FLUSH);
    } else if (tag === 'TD' || tag === 'TH') line += ' ';
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  flush();
  return blocks.join('\n\n');
}

function absoluteHttpUrl(raw: string | null, base: string): string | null {
  if (!raw) return null;
  const trimmed = raw.trim();
  if (trimmed === '' || /^(data|javascript|blob):/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The largest candidate of a srcset ("a.jpg 480w, b.jpg 1080w" → b.jpg). */
function largestOfSrcset(srcset: string | null): string | null {
  if (!srcset) return null;
  let best: { url: string; size: number } | null = null;
  for (const candidate of srcset.split(/,\s+/)) {
    const [url, descriptor] = candidate.trim().split(/\s+/);
    if (!url) continue;
    const size = descriptor ? Number.parseFloat(descriptor) || 1 : 1;
    if (!best || size > best.size) best = { url, size };
  }
  return best?.url ?? null;
}

function imagesOf(root: Element, base: string, limit: number, extra: Array<string | null>): string[] {
  const found = new Set<string>();
  const add = (url: string | null) => {
    if (url && found.size < limit) found.add(url);
  };
  for (const img of root.querySelectorAll('img')) {
    // Lazy-loading pages keep the real picture in data-src and a placeholder in src.
    const raw = img.getAttribute('data-src') ?? largestOfSrcset(img.getAttribute('srcset')) ?? img.getAttribute('src');
    add(absoluteHttpUrl(raw, base));
  }
  for (const url of extra) add(absoluteHttpUrl(url, base));
  return [...found];
}

function baseOf(document: { querySelector(selector: string): Element | null }, pageUrl: string): string {
  const declared = document.querySelector('base[href]')?.getAttribute('href');
  return absoluteHttpUrl(declared ?? null, pageUrl) ?? pageUrl;
}

function cut(text: string, max: number): { text: string; truncated: boolean } {
  return text.length > max ? { text: text.slice(0, max), truncated: true } : { text, truncated: false };
}

/** Title, main text and the article's image URLs (absolute, http(s), de-duplicated, capped). */
export function extractPage(fullHtml: string, pageUrl: string, options: PageExtractOptions = {}): PageExtract {
  const maxHtml = options.maxHtmlChars ?? DEFAULT_MAX_HTML_CHARS;
  const htmlCut = fullHtml.length > maxHtml;
  const html = htmlCut ? fullHtml.slice(0, maxHtml) : fullHtml;
  const maxImages = options.maxImages ?? DEFAULT_MAX_IMAGES;
  const maxText = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  const { document } = parseHTML(html);
  const base = baseOf(document as never, pageUrl);
  const pageTitle = (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const socialImage = document.querySelector('meta[property="og:image"]')?.getAttribute('content') ?? null;

  let article: { title: string | null | undefined; content: Element | null | undefined } | null = null;
  const depth = depthOf(document as unknown as TextNode);
  if (depth <= MAX_READABILITY_DEPTH) {
    try {
      // Readability rewrites the tree it reads; the fallback parses the page again if it needs it.
      article = new Readability<Element>(document as never, {
        maxElemsToParse: options.maxElements ?? DEFAULT_MAX_ELEMENTS,
        serializer: (node) => node as unknown as Element,
      }).parse();
    } catch {
      article = null; // too many elements, or markup Readability cannot walk: the fallback reads the page
    }
  }
  const articleText = article?.content ? textOfTree(article.content as unknown as TextNode) : '';
  if (article?.content && articleText.length >= MIN_ARTICLE_CHARS) {
    const { text, truncated } = cut(articleText, maxText);
    return {
      title: (article.title?.replace(/\s+/g, ' ').trim() || pageTitle).slice(0, MAX_TITLE_CHARS),
      text,
      imageUrls: imagesOf(article.content, base, maxImages, [socialImage]),
      extractor: 'readability',
      truncated: truncated || htmlCut,
    };
  }
  const original = parseHTML(html).document;
  const body = (original.querySelector('body') ?? original.documentElement) as unknown as Element | null;
  if (body) for (const node of [...body.querySelectorAll(NOT_CONTENT)]) node.remove();
  const bodyText = !body ? '' : depth <= MAX_CONVERT_DEPTH ? toText(body.innerHTML) : textOfTree(body as unknown as TextNode);
  const { text, truncated } = cut(bodyText, maxText);
  return {
    title: pageTitle.slice(0, MAX_TITLE_CHARS),
    text,
    imageUrls: body ? imagesOf(body, base, maxImages, [socialImage]) : [],
    extractor: 'html-to-text',
    truncated: truncated || htmlCut,
  };
}

/** The media stage's `PageExtractor` (src/media/types.ts), answering on the calling thread. */
export function createPageExtractor(options: PageExtractOptions = {}): { extract(html: string, pageUrl: string): PageExtract } {
  return { extract: (html, pageUrl) => extractPage(html, pageUrl, options) };
}
