/**
 * Top-level domains accepted for links written without a scheme. Bare domains
 * are where prose false positives come from ("it was great.now we"), so the
 * list is curated, not the full root zone: common generic TLDs and country codes.
 */

const GENERIC = [
  'com', 'net', 'org', 'edu', 'gov', 'mil', 'int', 'info', 'biz', 'io', 'co', 'xyz', 'app', 'dev',
  'online', 'site', 'shop', 'store', 'club', 'top', 'live', 'link', 'click', 'blog', 'tech', 'cloud',
  'website', 'space', 'fun', 'icu', 'vip', 'win', 'bid', 'loan', 'work', 'pro', 'mobi', 'name', 'tel',
  'page', 'news', 'media', 'world', 'today', 'email', 'chat', 'social', 'stream', 'download', 'porn',
  'sex', 'xxx', 'adult', 'casino', 'bet', 'poker', 'money', 'finance', 'crypto', 'ai', 'gg', 'tv', 'ly',
  'gl', 'cc', 'ws', 'fm', 'nu', 'eu', 'asia',
];

/** ISO 3166 country codes that are also common words, file extensions or abbreviations. */
export const WORDLIKE_TLDS: ReadonlySet<string> = new Set([
  'am', 'an', 'as', 'at', 'be', 'by', 'do', 'go', 'hi', 'id', 'if', 'in', 'is', 'it', 'la', 'ma', 'me',
  'mo', 'my', 'ne', 'no', 'of', 'on', 'or', 'pe', 'pl', 'py', 're', 'rs', 'sh', 'so', 'st', 'to', 'tv',
  'us', 'md', 'ml', 'ps', 'cx', 'tk', 'ai', 'sc', 'ac', 'ad', 'al', 'ar', 'cd', 'ci', 'cv', 'fm', 'ge',
  'gl', 'gs', 'im', 'ms', 'mu', 'mw', 'nl', 'nu', 'pm', 'pr', 'ro', 'sa', 'sd', 'se', 'sk', 'sm', 'sn',
  'sr', 'ss', 'sv', 'tc', 'td', 'tm', 'tn', 'tt', 'ua', 'ug', 'uk', 'vc', 'ws', 'ye', 'za', 'ch', 'cl',
  'cr', 'cu', 'es', 'et', 'fr', 'ga', 'gp', 'gr', 'hr', 'hu', 'ie', 'il', 'ir', 'kg', 'km', 'li', 'lt',
  'lu', 'mp', 'mt', 'mx', 'nc', 'pa', 'ph', 'pt', 'qa', 'sl', 'th', 'tr', 'tw', 'ca',
]);

const COUNTRY_CODES = (
  'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz ' +
  'ca cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et fi fj fk fm fo ' +
  'fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in iq ir is it je ' +
  'jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn ' +
  'mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ' +
  'ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th ' +
  'tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw'
).split(' ');

export const KNOWN_TLDS: ReadonlySet<string> = new Set([...GENERIC, ...COUNTRY_CODES]);

/** TLDs that alone are enough evidence for a bare domain ("example.com"). */
export function isStrongTld(tld: string): boolean {
  const lower = tld.toLowerCase();
  return KNOWN_TLDS.has(lower) && !WORDLIKE_TLDS.has(lower);
}

export const URL_SHORTENER_HOSTS: ReadonlySet<string> = new Set([
  'bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'ow.ly', 'is.gd', 'buff.ly', 'rebrand.ly', 'cutt.ly',
  'shorturl.at', 'tiny.cc', 'rb.gy', 't.ly', 'v.gd', 'bl.ink', 'lnkd.in', 'trib.al', 's.id', 'shorte.st',
  'adf.ly', 'bitly.com', 'tinyurl.is', 'qr.ae', 'db.tt', 'soo.gd', 'clck.ru', 'u.to', 'x.co', 'y2u.be',
  'youtu.be', 'amzn.to', 'fb.me', 'wp.me', 'dlvr.it', 'linktr.ee',
]);

/** Mail providers whose domain is itself strong evidence for an email written as "jane at gmail dot com". */
export const MAIL_PROVIDER_LABELS: ReadonlySet<string> = new Set([
  'gmail', 'googlemail', 'yahoo', 'hotmail', 'outlook', 'live', 'msn', 'icloud', 'me', 'mac', 'aol',
  'protonmail', 'proton', 'pm', 'gmx', 'web', 'mail', 'yandex', 'zoho', 'tutanota', 'fastmail', 'qq',
  '163', '126', 'naver', 'orange', 'free', 'laposte', 'libero', 'comcast', 'verizon', 'att',
]);
