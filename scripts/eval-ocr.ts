/**
 * npm run eval:ocr: OCR accuracy on generated images, through the service's own path (sharp
 * decode to the 1024-px preview, Guten OCR in a media worker). No labelled photo set exists
 * offline, so the images are rendered here from SVG: known lines of text on plain, dark, photo-like
 * and noisy backgrounds, several sizes, PNG and JPEG. Reports lines read exactly, and lines right
 * when whitespace is ignored (the recogniser often drops spaces).
 */
import sharp from 'sharp';
import { createImageDecoder } from '../src/media/image-decoder.ts';
import { createWorkerTextReader, MediaWorkerPool } from '../src/media/media-workers.ts';

interface Sample {
  name: string;
  lines: string[];
  fontSize: number;
  width: number;
  background: 'plain' | 'dark' | 'photo' | 'noise';
  format: 'png' | 'jpeg';
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const SAMPLES: Sample[] = [
  { name: 'insult, plain', lines: ['you are a pathetic idiot'], fontSize: 40, width: 900, background: 'plain', format: 'png' },
  { name: 'phone, plain', lines: ['Cheap flat near the station', 'Call me at 415 555 0134'], fontSize: 40, width: 900, background: 'plain', format: 'png' },
  { name: 'phone, jpeg', lines: ['Cheap flat near the station', 'Call me at 415 555 0134'], fontSize: 40, width: 900, background: 'plain', format: 'jpeg' },
  { name: 'wordlist word', lines: ['Buy zorblax pills today'], fontSize: 40, width: 900, background: 'plain', format: 'png' },
  { name: 'scam, dark', lines: ['You won a free iPhone', 'Send 50 dollars to claim it', 'Offer ends tonight'], fontSize: 44, width: 1000, background: 'dark', format: 'jpeg' },
  { name: 'meme over photo', lines: ['WHEN THE BOSS SAYS', 'THE MEETING IS AN EMAIL'], fontSize: 56, width: 1000, background: 'photo', format: 'jpeg' },
  { name: 'small text', lines: ['Contact me at jane.doe@example.com', 'or on WhatsApp +44 7700 900123'], fontSize: 22, width: 700, background: 'plain', format: 'png' },
  { name: 'noisy background', lines: ['Meet me after school', 'or you will regret it'], fontSize: 42, width: 900, background: 'noise', format: 'jpeg' },
  {
    name: 'dense paragraph',
    lines: [
      'Terms of the raffle: one ticket per person,',
      'winners are drawn on Friday at noon and',
      'announced on the community board. Prizes',
      'must be collected within seven days or they',
      'go to the next name on the list. Thank you',
      'to every volunteer who helped this year.',
    ],
    fontSize: 30,
    width: 1000,
    background: 'plain',
    format: 'png',
  },
  { name: 'large headline', lines: ['STOP SCROLLING', 'READ THIS NOW'], fontSize: 90, width: 1100, background: 'photo', format: 'png' },
];

async function render(sample: Sample): Promise<Buffer> {
  const lineHeight = Math.round(sample.fontSize * 1.6);
  const height = lineHeight * sample.lines.length + sample.fontSize * 2;
  const fill = sample.background === 'dark' ? '#f5f5f5' : sample.background === 'photo' ? '#ffffff' : '#111111';
  const stroke = sample.background === 'photo' ? ' stroke="#000" stroke-width="2"' : '';
  const backgrounds = {
    plain: '<rect width="100%" height="100%" fill="#fafafa"/>',
    dark: '<rect width="100%" height="100%" fill="#1d2533"/>',
    photo: '<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#5b8c5a"/><stop offset="1" stop-color="#2b4162"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="70%" cy="40%" r="25%" fill="#e0a458" opacity="0.7"/>',
    noise: `<rect width="100%" height="100%" fill="#e8e4d8"/>${Array.from({ length: 120 }, (_, i) => `<circle cx="${(i * 97) % sample.width}" cy="${(i * 53) % height}" r="${3 + (i % 7)}" fill="#b7b09c"/>`).join('')}`,
  };
  const text = sample.lines
    .map((line, i) => `<text x="30" y="${sample.fontSize * 1.5 + i * lineHeight}" font-size="${sample.fontSize}" font-family="DejaVu Sans" font-weight="bold" fill="${fill}"${stroke}>${escapeXml(line)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${sample.width}" height="${height}">${backgrounds[sample.background]}${text}</svg>`;
  const image = sharp(Buffer.from(svg));
  return sample.format === 'jpeg' ? image.jpeg({ quality: 80 }).toBuffer() : image.png().toBuffer();
}

const pool = new MediaWorkerPool({ size: 1, maxQueue: 100, ocr: true });
await pool.warmUp();
const decoder = createImageDecoder({ maxImagePixels: 50_000_000 });
const reader = createWorkerTextReader(pool);
const squash = (text: string) => text.replace(/\s+/g, '');

let total = 0;
let exact = 0;
let ignoringSpace = 0;
const rows: string[] = [];
for (const sample of SAMPLES) {
  const read = await reader.read(await decoder.decode(await render(sample)));
  let sampleExact = 0;
  let sampleSpace = 0;
  sample.lines.forEach((line, i) => {
    const got = read[i] ?? '';
    if (got === line) sampleExact++;
    if (squash(got) === squash(line)) sampleSpace++;
  });
  total += sample.lines.length;
  exact += sampleExact;
  ignoringSpace += sampleSpace;
  rows.push(`| ${sample.name} | ${sample.background}, ${sample.fontSize}px, ${sample.format} | ${sample.lines.length} | ${sampleExact} | ${sampleSpace} | ${read.map((l) => `\`${l}\``).join(' / ')} |`);
}
await pool.close();
console.log('| image | kind | lines | exact | ignoring whitespace | read |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
console.log(`\nTotal: ${exact}/${total} lines exact (${((100 * exact) / total).toFixed(0)}%), ${ignoringSpace}/${total} right ignoring whitespace (${((100 * ignoringSpace) / total).toFixed(0)}%).`);
