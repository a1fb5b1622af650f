import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPageExtractor, extractPage } from './page-extractor.ts';
import { PageExtractionWorker } from './page-worker.ts';
import { MediaError } from './types.ts';

const SCAM = 'Congratulations, you have been selected to receive a $1,000 gift card. To claim it, send your online banking password to claims-desk@example.net within 24 hours or the prize expires.';

const NAV_LINKS = ['Home', 'World news', 'Business', 'Technology', 'Sport', 'Weather', 'Sign in', 'Subscribe'];

/** A news-like page: a long menu, a sidebar of ads and related links, cookie banner and footer around one article. */
function noisyPage(): string {
  const menu = NAV_LINKS.map((label, i) => `<li><a href="/section/${i}">${label}</a></li>`).join('');
  const related = Array.from({ length: 12 }, (_, i) => `<li><a href="/story/${i}">Related story number ${i} you might like</a></li>`).join('');
  const filler = [
    'The town council met on Tuesday evening to discuss the new bus timetable, which comes into force next month after a long consultation with residents and local businesses.',
    'Several speakers raised concerns about the early morning services, which many shift workers rely on, and asked for the last evening bus to leave later than it does today.',
    'The council said it would publish the final timetable on its website and in the library, and that drivers would hand out printed copies on every route for two weeks.',
  ];
  return `<!doctype html><html><head><title>Town news | Bus timetable changes</title>
  <meta property="og:image" content="https://cdn.example.org/social/card.jpg">
  <style>.ad{color:red}</style><script>window.tracking = "SECRET_TRACKER_TEXT";</script></head>
  <body>
    <div class="cookie-banner" role="banner">We use cookies. Accept all cookies to continue.</div>
    <header><nav class="menu"><ul>${menu}</ul></nav></header>
    <aside class="sidebar"><div class="ad">Advertisement: cheap flights to everywhere</div><ul>${related}</ul></aside>
    <main><article>
      <h1>Bus timetable changes next month</h1>
      <p>${filler[0]}</p>
      <figure><img src="/images/bus.jpg" alt="A bus"><figcaption>The number 7 bus</figcaption></figure>
      <p>${filler[1]}</p>
      <p>${SCAM}</p>
      <img data-src="https://img.example.org/lazy/real.png" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <img srcset="/img/small.jpg 480w, /img/large.jpg 1080w" src="/img/small.jpg">
      <img src="/images/bus.jpg">
      <img src="javascript:alert(1)">
      <p>${filler[2]}</p>
    </article></main>
    <footer><p>Copyright Town News. Terms of use. Privacy policy. Contact us.</p></footer>
  </body></html>`;
}

test('the scam paragraph comes out as the text, without the navigation, ads, scripts and footer', () => {
  const page = extractPage(noisyPage(), 'https://news.example.org/2026/11/bus.html');
  assert.equal(page.extractor, 'readability');
  assert.ok(page.title.includes('Bus timetable changes'), page.title);
  assert.ok(page.text.includes(SCAM), page.text);
  // Paragraphs stay apart.
  assert.ok(page.text.includes(`${SCAM}\n\n`), 'paragraphs are separated by a blank line');
  for (const noise of ['World news', 'Sign in', 'Related story number', 'cheap flights', 'Accept all cookies', 'Privacy policy', 'SECRET_TRACKER_TEXT', '.ad{']) {
    assert.ok(!page.text.includes(noise), `"${noise}" leaked into the text`);
  }
  assert.equal(page.truncated, false);
});

test('image URLs: absolute, from the article, lazy and srcset sources, de-duplicated, no data: or javascript:, then og:image', () => {
  const page = extractPage(noisyPage(), 'https://news.example.org/2026/11/bus.html');
  assert.deepEqual(page.imageUrls, [
    'https://news.example.org/images/bus.jpg',
    'https://img.example.org/lazy/real.png',
    'https://news.example.org/img/large.jpg',
    'https://cdn.example.org/social/card.jpg',
  ]);
  assert.deepEqual(extractPage(noisyPage(), 'https://news.example.org/', { maxImages: 2 }).imageUrls, [
    'https://news.example.org/images/bus.jpg',
    'https://img.example.org/lazy/real.png',
  ]);
  // <base href> decides how relative URLs resolve.
  const based = extractPage(noisyPage().replace('<head>', '<head><base href="https://static.example.com/site/">'), 'https://news.example.org/a/b.html');
  assert.equal(based.imageUrls[0], 'https://static.example.com/images/bus.jpg');
});

test('a page that is not an article still gives its text (fallback), without menus and scripts', () => {
  const html = `<html><head><title>Shop</title></head><body><nav><a href="/">Home</a> <a href="/cart">Cart</a></nav>
    <div><b>Limited offer:</b> WhatsApp +1 555 0100 for cheap pills</div><script>var x = "hidden script";</script>
    <img src="pills.png"></body></html>`;
  const page = createPageExtractor().extract(html, 'http://shop.example.com/offers/');
  assert.equal(page.title, 'Shop');
  assert.match(page.text, /Limited offer: WhatsApp \+1 555 0100 for cheap pills/);
  assert.ok(!page.text.includes('Cart'));
  assert.ok(!page.text.includes('hidden script'));
  assert.deepEqual(page.imageUrls, ['http://shop.example.com/offers/pills.png']);
});

test('empty, broken and huge input never throws', () => {
  assert.deepEqual(
    { ...extractPage('', 'https://example.com/'), imageUrls: [] },
    { title: '', text: '', imageUrls: [], extractor: 'html-to-text', truncated: false },
  );
  const broken = extractPage('<html><body><p>Unclosed <b>bold <i>text<div></p></span>', 'https://example.com/');
  assert.match(broken.text, /Unclosed bold text/);
  const long = `<html><body><article>${'<p>word '.repeat(1_500)}</article></body></html>`;
  const capped = extractPage(long, 'https://example.com/', { maxTextChars: 5_000 });
  assert.equal(capped.text.length, 5_000);
  assert.equal(capped.truncated, true);
});

test('deeply nested markup (Readability slows down steeply with depth, html-to-text recurses) is read without it, quickly', () => {
  for (const depth of [400, 20_000]) {
    const html = `<html><body>${'<div>'.repeat(depth)}<p>${SCAM}</p>${'</div>'.repeat(depth)}</body></html>`;
    const started = Date.now();
    const page = extractPage(html, 'https://example.com/');
    assert.equal(page.extractor, 'html-to-text');
    assert.equal(page.text, SCAM);
    assert.ok(Date.now() - started < 15_000, `${depth} levels: ${Date.now() - started} ms`);
  }
});

test('in the worker thread: the same answer, a time cap that ends a stuck page, and the next page still read', async () => {
  const worker = new PageExtractionWorker({ maxQueue: 4 });
  try {
    const page = await worker.extract(noisyPage(), 'https://news.example.org/2026/11/bus.html', { timeoutMs: 10_000 });
    assert.deepEqual(page, extractPage(noisyPage(), 'https://news.example.org/2026/11/bus.html'));
    const heavy = `<html><body><article>${'<p>word word word word word word.</p>'.repeat(40_000)}</article></body></html>`;
    await assert.rejects(worker.extract(heavy, 'https://example.com/', { timeoutMs: 50 }), (error: unknown) => error instanceof MediaError && error.code === 'timed_out');
    const after = await worker.extract(noisyPage(), 'https://news.example.org/', { timeoutMs: 10_000 });
    assert.ok(after.text.includes(SCAM));
    const cut = await worker.extract(noisyPage(), 'https://news.example.org/', { timeoutMs: 10_000, maxHtmlChars: 400 });
    assert.equal(cut.truncated, true);
    assert.ok(!cut.text.includes(SCAM));
  } finally {
    await worker.close();
  }
});
