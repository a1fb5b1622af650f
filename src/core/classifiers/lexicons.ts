/**
 * Curated term lists. They serve two purposes: as dense features inside the
 * trained models (the model learns how much a hit matters in context), and as
 * the evidence of the policies that have no training data (illicit goods,
 * crypto, code abuse...). Multi-word terms match on consecutive tokens.
 * The profanity list is derived from the Surge AI list (MIT) at training time
 * and shipped in models/profanity-terms.json.
 */
import { readFileSync } from 'node:fs';
import { MODELS_DIR } from './paths.ts';

const CURATED: Record<string, string> = {
  identity_race:
    'black, blacks, white, whites, asian, asians, latino, latinos, latina, latinas, latinx, hispanic, hispanics, african, africans, arab, arabs, ' +
    'indigenous, native american, native americans, aboriginal, mexican, mexicans, chinese, japanese, korean, indian, indians, jewish, ' +
    'jew, jews, roma, gypsy, gypsies, caucasian, caucasians, african american, african americans, people of color, poc, ethnic, race, racial, ' +
    'middle eastern, pakistani, pakistanis, somali, somalis, nigerian, nigerians, filipino, filipinos, vietnamese, brown people, black people, white people',
  identity_religion:
    'muslim, muslims, islam, islamic, christian, christians, christianity, catholic, catholics, jewish, judaism, hindu, hindus, hinduism, ' +
    'buddhist, buddhists, sikh, sikhs, atheist, atheists, mormon, mormons, protestant, protestants, religious, jews, jew',
  identity_gender:
    'women, woman, girls, females, female, men, man, males, male, trans, transgender, transgenders, nonbinary, non-binary, ' +
    'trans people, trans women, trans men, feminists, feminist, ladies, lady, wife, wives, mothers, genderqueer',
  identity_orientation:
    'gay, gays, lesbian, lesbians, bisexual, bisexuals, queer, queers, homosexual, homosexuals, lgbt, lgbtq, lgbtqia, heterosexual, straight people, asexual, pansexual',
  identity_disability:
    'disabled, disability, disabilities, blind, deaf, autistic, autism, wheelchair, paraplegic, handicapped, mentally ill, mental illness, ' +
    'down syndrome, disabled people, people with disabilities, schizophrenic, dyslexic',
  identity_nationality:
    'immigrant, immigrants, refugee, refugees, migrant, migrants, foreigner, foreigners, illegals, illegal aliens, asylum seekers, ' +
    'american, americans, british, french, german, germans, russian, russians, syrian, syrians, afghan, afghans, mexican, mexicans, ' +
    'irish, polish, italian, italians, canadian, canadians, australian, australians, turkish, iranian, iranians, iraqi, chinese, palestinian, palestinians, israeli, israelis',
  identity_age: 'elderly, old people, boomers, millennials, teenagers, teens, seniors, kids, children',
  dehumanizing:
    'vermin, animals, animal, parasites, parasite, cockroaches, cockroach, rats, rat, subhuman, subhumans, filth, filthy, scum, savages, savage, ' +
    'disease, plague, infestation, invaders, invasion, apes, ape, monkeys, pigs, dogs, trash, garbage, inferior, worthless, degenerate, degenerates, ' +
    'primitive, barbaric, barbarians, criminals, rapists, terrorists, leeches, breed like, pests, pest, swarm, mongrels, sickening, disgusting, revolting, ' +
    // Round 2: contempt and stereotype vocabulary (burden, freaks, lazy...) that the first list missed.
    'burden, drain, waste of space, waste of oxygen, freaks, freak of nature, lowlifes, vile, repulsive, abomination, abominations, perverts, pervert, ' +
    'predators, thugs, uncivilized, backward, smelly, stink, stinking, dirty, lazy, greedy, liars, thieves, lesser, lower form, less than human, ' +
    'not human, not people, not real people, creatures, beasts, monsters, mentally ill, sick in the head, defective, genetically inferior, ' +
    'breeders, horde, hordes, invading, flood, flooding, overrun, infest, infested, plague on, cancer on, parasitic, useless eaters, ' +
    'unclean, impure, dogs, goats, roaches, rodents, vermins, scumbags, trash people, filth, savagery',
  hostility:
    'hate, hates, hated, hating, despise, loathe, detest, cannot stand, can\'t stand, sick of, get rid of, go back, deport, deported, ' +
    'ban, banned, exterminate, extermination, wipe out, eradicate, gas, lynch, lynched, hang, should die, must die, deserve to die, ' +
    'not welcome, don\'t belong, do not belong, out of our country, shouldn\'t be allowed, should not be allowed, kick out, send them back, all the same, ' +
    'remove them, drive them out, round up, rounded up, camps, sterilise, sterilize, sterilised, sterilized, strip them, keep them out, keep away from, ' +
    'put them in their place, know their place, their kind, your kind, those people, these people, go home, not one of us, never be equal, ' +
    'disgust me, makes me sick, make me sick, can\'t stand, cannot stand, wish they would die, wish they would disappear, die out, get out',
  insult:
    'idiot, idiots, stupid, moron, morons, dumb, loser, losers, pathetic, ugly, fat, worthless, useless, clown, imbecile, ignorant, ' +
    'shut up, stfu, gtfo, screw you, piss off, get lost, nobody likes you, kill yourself, kys, die, go die, trash, garbage, disgrace, ' +
    'scumbag, creep, freak, fool, fools, dumbass, jackass, dipshit, retarded, braindead, brainless, cretin, lowlife, waste of space, incompetent',
  violence:
    'kill, kills, killed, killing, murder, murders, murdered, murdering, stab, stabbed, stabbing, shoot, shot, shooting, shooter, beat, beating, ' +
    'punch, punched, strangle, strangled, choke, choked, behead, beheaded, beheading, slaughter, slaughtered, massacre, torture, tortured, ' +
    'bomb, bombing, explode, blow up, attack, attacked, assault, assaulted, rape, raped, burn, burned, hang, hanged, lynch, execute, executed, ' +
    'knife, gun, bullet, bullets, blood, bleed, bleeding, hurt, harm, smash, break your, slit, cut your, gouge, dismember, dismembered, ' +
    'mutilate, mutilated, corpse, corpses, dead body, violence, violent, war, weapon, weapons, fight, destroy, crush, bash, kick, whip, decapitate',
  threat:
    'i will kill, i\'ll kill, gonna kill, going to kill, will find you, find where you live, know where you live, watch your back, you\'re dead, ' +
    'you are dead, your days are numbered, i will hurt, i\'ll hurt, i will beat, i\'ll beat, i will shoot, i\'ll shoot, i will stab, i\'ll stab, ' +
    'should be shot, should be killed, should be hanged, deserve to be shot, deserve to die, will pay, will regret, better watch out, ' +
    'i will end you, i\'ll end you, put a bullet, burn down, burn your, come for you, coming for you, hunt you down, hunt them down',
  gore:
    'blood, bloody, gore, gory, guts, intestines, entrails, organs, brains, skull, severed, decapitated, dismembered, mutilated, disemboweled, ' +
    'flesh, torn apart, ripped open, splattered, pool of blood, bones, bone, crushed, mangled, rotting, corpse, carcass, limbs, bleeding out',
  self_harm:
    'suicide, suicidal, kill myself, killing myself, end my life, ending my life, take my life, taking my own life, want to die, wanna die, ' +
    'self harm, self-harm, selfharm, cut myself, cutting myself, cutting, hurt myself, hurting myself, overdose, overdosing, od, ' +
    'slit my wrists, wrists, hang myself, jump off, better off dead, no reason to live, don\'t want to live, not want to be alive, ' +
    'starve myself, starving myself, purge, purging, anorexia, anorexic, bulimia, bulimic, pro ana, thinspo, razor, blades, noose, pills, ' +
    'end it all, ending it all, final goodbye, goodbye cruel world, worthless, hopeless, no way out, disappear forever, sleep forever',
  sexual:
    'sex, sexual, sexy, naked, nude, nudes, porn, porno, pornography, horny, orgasm, orgasms, erotic, erection, aroused, arousal, ' +
    'penis, cock, dick, vagina, pussy, clit, clitoris, breasts, boobs, tits, nipples, nipple, ass, butt, thighs, moan, moaned, moaning, ' +
    'cum, cumming, ejaculate, masturbate, masturbating, masturbation, blowjob, handjob, anal, oral sex, lick, licked, licking, suck, sucked, ' +
    'sucking, thrust, thrusting, thrusts, fuck, fucked, fucking, fucks, lingerie, panties, bra, undress, undressed, strip, stripping, bed, ' +
    'kinky, fetish, bdsm, threesome, onlyfans, camgirl, escort, escorts, hooker, hookers, stripper, xxx, nsfw, slut, whore, wet, hard, ' +
    'spread her legs, spread my legs, on top of me, inside me, inside her, between her legs, sex toy, vibrator, dildo, foreplay, climax',
  flirt:
    'cute, cutie, beautiful, gorgeous, handsome, hot, sexy, babe, baby, sweetheart, darling, honey, kiss, kisses, date, dinner, ' +
    'your smile, your eyes, crush on you, thinking about you, miss you, love you, wanna hang out, single, number, dm me, text me, ' +
    'you look amazing, you\'re stunning, stunning, charming, flirt, flirting, wink, 😘, 😍, 😉, 💋, ❤️, heart eyes, go out with me',
  drugs:
    'cocaine, coke:0.5, crack:0.5, heroin, meth, methamphetamine, mdma, ecstasy, molly, lsd, acid:0.3, shrooms, mushrooms:0.3, ketamine, fentanyl, opioids, ' +
    'oxy, oxycodone, oxycontin, xanax, percocet, adderall, lean:0.3, codeine, pills:0.4, dealer:0.5, dealers:0.5, drug:0.6, drugs:0.7, high:0.2, get high, getting high, ' +
    'snort, snorting, inject, needle, needles, dope:0.5, junkie, overdose:0.6, plug:0.3, grams:0.3, gram:0.3, ounce:0.3, eighth:0.3, baggie:0.5, tripping:0.4, pcp, dmt, ' +
    'crystal meth, speed:0.2, amphetamine, benzos, narcotics, stash:0.4, smack:0.2, opium, morphine:0.6, kratom',
  cannabis:
    'weed, marijuana, cannabis, pot:0.4, joint:0.4, joints:0.5, blunt, blunts, bong, bongs, thc, cbd, kush, dab:0.3, dabs:0.5, edibles:0.6, edible:0.3, stoned:0.7, ' +
    '420, 4/20, ganja, reefer, hash:0.3, hashish, sativa, indica, dispensary, smoke weed, smoking weed, high af, pre-roll, vape pen:0.5, gummies:0.2',
  alcohol:
    'beer, beers, wine, wines, vodka, whiskey, whisky, rum, tequila, gin:0.6, booze, drunk, drinking:0.6, drink:0.4, drinks:0.5, alcohol, alcoholic, ' +
    'shots:0.4, shot of:0.4, cocktail, cocktails, liquor, hangover, hungover, wasted:0.5, tipsy, brewery, bar:0.4, pub:0.7, champagne, margarita, bourbon, sake:0.2, ' +
    'keg, beer pong, binge drinking, six pack, bottle of',
  firearms:
    'gun, guns, rifle, rifles, pistol, pistols, handgun, handguns, shotgun, shotguns, ak-47, ak47, ar-15, ar15, glock, ammo, ammunition, ' +
    'bullets:0.7, rounds:0.3, magazine:0.3, magazines:0.3, silencer, suppressor, firearm, firearms, caliber, 9mm, sniper:0.7, assault rifle, ' +
    'ghost gun, 3d printed gun, bump stock, full auto, trigger:0.3, holster, gunsmith, revolver, carbine, scope:0.2, grenade, explosives',
  tobacco:
    'cigarette, cigarettes, cigar, cigars, tobacco, smoking:0.5, smoke:0.4, smoker:0.6, vape, vaping, vapes, juul, nicotine, e-cig, e-cigarette, ' +
    'hookah, shisha, snus, dip:0.2, chewing tobacco, marlboro, newport, pack of smokes, cig, cigs, rolling tobacco, zyn',
  gambling:
    'casino, casinos, bet:0.4, bets:0.6, betting, gamble, gambling, poker, blackjack, roulette, slots, slot machine, jackpot, sportsbook, ' +
    'odds:0.4, wager, wagers, parlay, bookie, lottery, lotto, scratch card, bingo:0.4, free spins, deposit bonus, baccarat, craps:0.6, bet365, draftkings, fanduel',
  crypto:
    'bitcoin, btc, ethereum, eth:0.6, crypto, cryptocurrency, cryptocurrencies, blockchain, nft, nfts, token:0.3, tokens:0.4, altcoin, altcoins, ' +
    'dogecoin, doge:0.6, solana, sol:0.2, usdt, tether, binance, coinbase, wallet:0.3, airdrop:0.6, defi, staking:0.6, mining:0.3, miner:0.3, hodl, shitcoin, ' +
    'memecoin, to the moon:0.4, pump:0.2, dump:0.2, rug pull, seed phrase, private key:0.5, metamask, web3, ico:0.4, satoshi, litecoin, xrp, ripple:0.3, cardano',
  political:
    'election, elections, vote, voting, voter, voters, ballot, democrat, democrats, republican, republicans, gop, liberal, liberals, ' +
    'conservative, conservatives, trump, biden, obama, hillary, clinton, congress, senate, senator, president, presidential, government, ' +
    'politics, political, politician, politicians, campaign, policy, legislation, parliament, prime minister, left wing, right wing, ' +
    'leftist, leftists, socialism, socialist, communism, communist, fascism, fascist, immigration, abortion, pro-life, pro-choice, ' +
    'gun control, tax, taxes, maga, brexit, feminism, climate change, protest, protests, democracy, dictator, regime, impeach, impeachment',
  religion:
    'god, gods, jesus, christ, allah, bible, quran, koran, torah, church, churches, mosque, mosques, synagogue, temple, pray, prayer, ' +
    'prayers, praying, faith, religion, religions, religious, atheist, atheism, atheists, christian, christians, christianity, muslim, ' +
    'muslims, islam, jewish, judaism, hindu, hinduism, buddhist, buddhism, sikh, pope, priest, pastor, imam, rabbi, heaven, hell, ' +
    'sin, sins, holy, blessed, bless, lord, gospel, scripture, salvation, prophet, muhammad, worship, spiritual, amen, hallelujah, satan',
  adult:
    'porn, porno, pornography, xxx, nsfw, onlyfans, fansly, camgirl, cam girl, webcam show, escort, escorts, hookup, hookups, hook up tonight, ' +
    'adult content, adult video, adult videos, sex video, sex videos, nude pics, nudes, strip club, stripper, brothel, sex worker, ' +
    'erotic, erotica, 18+, live sex, sex chat, sexting, milf, hentai, playboy, pornhub, xvideos, adult site, adult dating, sugar daddy',
  spam:
    'free, win, winner, won, prize, claim, urgent, offer, cash, credit, loan, txt, text, call now, click, click here, subscribe, ' +
    'limited time, act now, guaranteed, discount, deal, buy now, order now, cheap, bonus, reward, gift card, congratulations, ' +
    'selected, unsubscribe, stop to, reply, mobile, ringtone, voucher, earn, income, work from home, make money, 100%, risk free',
  self_promotion:
    'check out my, check my, my channel, my video, my videos, my page, my profile, my website, my site, my blog, my shop, my store, ' +
    'subscribe, subscribe to, follow me, follow my, like my, visit my, my new song, my music, my mixtape, my podcast, my instagram, ' +
    'my youtube, my twitch, my tiktok, link in bio, use my code, promo code, my link, sub4sub, check it out, please subscribe, support me',
  code_abuse:
    'select * from, drop table, union select, or 1=1, \' or \'1\'=\'1, <script>, </script>, javascript:, onerror=, onload=, eval(, ' +
    'document.cookie, rm -rf, /etc/passwd, ../.., sudo, exec(, system(, powershell, cmd.exe, wget http, curl http, base64, ' +
    '${jndi, ignore previous instructions, ignore all previous instructions, disregard previous instructions, you are now dan, ' +
    'jailbreak, prompt injection, system prompt, reverse shell, netcat, nc -e, /bin/sh, /bin/bash, xp_cmdshell, sleep(, benchmark(',
  personal_info:
    'my address is, my phone number, my number is, call me at, text me at, my email, email me at, social security, ssn, credit card, ' +
    'card number, cvv, passport number, date of birth, my dob, bank account, routing number, home address, lives at, live at, ' +
    'his address, her address, their address, license plate, password is, my password',
  illicit:
    'fake id, fake ids, counterfeit, counterfeits, money laundering, launder money, stolen credit card, stolen cards, carding, cvv dumps, dumps, ' +
    'dark web, darknet, smuggle, smuggling, trafficking, black market, hack into, hacking into, ddos, ransomware, phishing kit, ' +
    'buy drugs, sell drugs, selling drugs, drug dealer, fake passport, forged, forgery, bribe, bribery, scam, scams, fraud, ' +
    'steal, stealing, shoplift, shoplifting, pirated, cracked software, untraceable, no questions asked, cash only, burner phone, ' +
    'hitman, hire a hitman, make a bomb, pipe bomb, make meth, cook meth, bypass security, pick a lock, hotwire, evade taxes',
  trade_intent:
    'buy, buying, sell, selling, for sale, sale, price, prices, order, ordering, ship, shipping, delivery, deliver, dm me, dm for, hit me up, ' +
    'plug, vendor, cheap, discount, wholesale, in stock, available now, where can i get, where to buy, how to get, get some, hook me up, cash app, venmo',
  negation: "not, no, never, don't, dont, doesn't, isn't, aren't, wasn't, won't, wouldn't, shouldn't, nobody, nothing, neither, nor",
  positive:
    'love, loved, lovely, wonderful, great, amazing, awesome, beautiful, proud, respect, respected, admire, kind, kindness, brilliant, ' +
    'welcome, support, supportive, equal, equality, celebrate, friend, friends, happy, glad, best, good, nice, appreciate, grateful, ' +
    'rights, equal rights, dignity, valued, valuable, capable, talented, smart, kind, caring, generous, adore, safe, belong here, deserve respect, ' +
    'thank you, thanks, congratulations, inspiring, strong, resilient, ally, allies, inclusion, inclusive, diversity, protect, defend',
};

const PROFANITY_FEATURES = ['prof_mild', 'prof_strong', 'prof_severe', 'slur_race', 'slur_gender_orientation', 'slur_disability', 'prof_sexual'] as const;

/** Feature order is part of the model format: append only. */
export const LEXICON_FEATURES = [...Object.keys(CURATED), ...PROFANITY_FEATURES] as const;
export type LexiconCategory = string;
const CATEGORY_INDEX = new Map<string, number>(LEXICON_FEATURES.map((name, index) => [name, index]));
export function lexiconIndex(category: string): number {
  const index = CATEGORY_INDEX.get(category);
  if (index === undefined) throw new Error(`unknown lexicon category ${category}`);
  return index;
}

/** The single-word terms of a curated category (weight markers dropped), for the concept directions of features.ts. */
export function curatedWords(category: string): string[] {
  const list = CURATED[category];
  if (list === undefined) throw new Error(`unknown curated category ${category}`);
  return list
    .split(',')
    .map((item) => item.trim().replace(/:\d(?:\.\d+)?$/, '').toLowerCase())
    .filter((term) => term && !term.includes(' '));
}

export interface ProfanityTerm {
  term: string;
  severity: number;
  categories: string[];
}

export interface LexiconHits {
  /** Hit count per LEXICON_FEATURES entry (profanity entries weighted by severity). */
  scores: Float32Array;
  /** Matched terms per category index (first few only). */
  matches: Map<number, string[]>;
  /** Highest Surge severity (1–3) among matched profanity, 0 when none. */
  maxProfanitySeverity: number;
}

export interface TermEntry {
  categories: number[];
  weights: number[];
}

let termTable: Map<string, TermEntry> | null = null;
let maxPhraseLength = 1;
/** Every leading run of words of a multi-word term ("i will" of "i will kill"): a phrase grows only while it can still match. */
let phrasePrefixes = new Set<string>();
/** Stems of the "stem*" terms, longest first; their entries are kept under "stem*". */
let wordPrefixes: string[] = [];
const wordPrefixStarts = new Set<number>();

function addTerm(table: Map<string, TermEntry>, term: string, category: number, weight: number): void {
  const key = term.trim().toLowerCase().replace(/’/g, "'").replace(/\s+/g, ' ');
  if (!key) return;
  // "scheiß*": the word and any one word that starts so. German glues swear words onto nouns ("Scheißwetter", "Drecksack").
  if (key.endsWith('*') && !key.includes(' ') && key.length > 3) {
    const stem = key.slice(0, -1);
    if (!table.has(key)) wordPrefixes.push(stem);
    wordPrefixStarts.add(stem.charCodeAt(0));
    wordPrefixes.sort((a, b) => b.length - a.length);
  }
  const words = key.split(' ');
  maxPhraseLength = Math.max(maxPhraseLength, words.length);
  for (let n = 1; n < words.length; n++) phrasePrefixes.add(words.slice(0, n).join(' '));
  let entry = table.get(key);
  if (!entry) {
    entry = { categories: [], weights: [] };
    table.set(key, entry);
  }
  const existing = entry.categories.indexOf(category);
  if (existing >= 0) entry.weights[existing] = Math.max(entry.weights[existing]!, weight);
  else {
    entry.categories.push(category);
    entry.weights.push(weight);
  }
}

export const PROFANITY_TERMS_FILE = 'profanity-terms.json';

export function loadProfanityTerms(): ProfanityTerm[] {
  try {
    return JSON.parse(readFileSync(`${MODELS_DIR}/${PROFANITY_TERMS_FILE}`, 'utf8')) as ProfanityTerm[];
  } catch {
    return [];
  }
}

let profanityOverride: ProfanityTerm[] | null = null;
/** Training builds the profanity list before the models directory has it. */
export function setProfanityTerms(terms: ProfanityTerm[] | null): void {
  profanityOverride = terms;
  termTable = null;
}

/** Counts the tables built, so that what tokenLexicon answered for an older table is not used with a newer one. */
let tableGeneration = 0;

function buildTable(): Map<string, TermEntry> {
  tableGeneration++;
  const table = new Map<string, TermEntry>();
  phrasePrefixes = new Set<string>();
  wordPrefixes = [];
  wordPrefixStarts.clear();
  for (const [category, list] of Object.entries(CURATED)) {
    const index = CATEGORY_INDEX.get(category)!;
    for (const item of list.split(',')) {
      // "term:0.4" marks an ambiguous term that counts for less.
      const weighted = /^(.*):(\d(?:\.\d+)?)$/.exec(item.trim());
      if (weighted) addTerm(table, weighted[1]!, index, Number(weighted[2]));
      else addTerm(table, item, index, 1);
    }
  }
  const severityFeature = ['prof_mild', 'prof_mild', 'prof_strong', 'prof_severe'];
  for (const { term, severity, categories } of profanityOverride ?? loadProfanityTerms()) {
    const rounded = Math.max(1, Math.min(3, Math.round(severity)));
    addTerm(table, term, CATEGORY_INDEX.get(severityFeature[rounded]!)!, 1);
    for (const category of categories) {
      if (category.startsWith('racial')) addTerm(table, term, CATEGORY_INDEX.get('slur_race')!, severity / 3);
      else if (category.startsWith('sexual orientation')) addTerm(table, term, CATEGORY_INDEX.get('slur_gender_orientation')!, severity / 3);
      else if (category.startsWith('mental disability') || category.startsWith('physical disability'))
        addTerm(table, term, CATEGORY_INDEX.get('slur_disability')!, severity / 3);
      else if (category.startsWith('sexual anatomy')) addTerm(table, term, CATEGORY_INDEX.get('prof_sexual')!, 1);
    }
  }
  return table;
}

const PROFANITY_SEVERITY_INDEX = ['prof_mild', 'prof_strong', 'prof_severe'].map((name) => CATEGORY_INDEX.get(name)!);

function lookup(table: Map<string, TermEntry>, key: string): TermEntry | undefined {
  const entry = table.get(key);
  if (entry) return entry;
  if (wordPrefixStarts.has(key.charCodeAt(0)) && key.indexOf(' ') < 0) {
    for (let p = 0; p < wordPrefixes.length; p++) {
      const stem = wordPrefixes[p]!;
      if (key.startsWith(stem)) return table.get(`${stem}*`);
    }
  }
  if (key.length < 5) return entry;
  // Light suffix stripping so "stabbing" or "immigrants" hit when only the stem is listed.
  if (key.endsWith('s')) return table.get(key.slice(0, -1));
  return undefined;
}

/**
 * Whether `word` is in the lexicon only because lookup read it as a plural: "assess" is no plural of "asse". The
 * featurizer keeps that reading (the shipped models were trained with it); the profanity policy asks this to drop it.
 */
export function isDoubleSPluralGuess(word: string): boolean {
  if (!termTable) termTable = buildTable();
  if (word.length < 5 || !word.endsWith('ss') || termTable.has(word)) return false;
  for (const stem of wordPrefixes) if (word.startsWith(stem)) return false;
  return termTable.has(word.slice(0, -1));
}

/**
 * Swear words found missing after the shipped models were trained (round 13, from the realistic dev set's misses; on
 * the corpus's TRAIN messages, judged profanity / not: shit* 338/7, weon* 12/1, hijueputa* 5/1, bollix and fuder 0/0),
 * with the severity of own-profanity.tsv. Only the profanity policy counts them: the lexicon features stay as the
 * models learnt them until a model round moves these into training/wordlists/own-profanity.tsv.
 */
const PROFANITY_AFTER_MODELS: ReadonlyArray<readonly [stem: string, severity: 1 | 2 | 3, prefix: boolean]> = [
  ['shit', 1, true],
  ['bollix', 1, false],
  ['weon', 2, true],
  ['hijueputa', 3, true],
  ['fuder', 2, false],
];
/** "Shitake" (the mushroom, often so spelt), Shittim (the acacia of the Bible), Shitterton and Shitlington (English villages). */
const NOT_AFTER_MODELS = ['shitak', 'shittim', 'shitterton', 'shitlington'];
/** Words of the -es plural rule that are another word: Spanish "anales" (annals). */
const NOT_PLURALS = new Set(['anales']);
/**
 * The endings after which a plural takes -es: Spanish and Portuguese after n, l, r, d, z, j ("maricones", "cabrones"),
 * English after s, x, z, ch, sh ("bitches"). "spikes" and "spices" are not plurals of "spik" and "spic".
 */
const ES_PLURAL_STEM = /(?:[nlrdzjsx]|ch|sh)$/;
const PROFANITY_CATEGORIES = new Set(['prof_mild', 'prof_strong', 'prof_severe'].map(lexiconIndex));
const PROFANITY_LEVEL = new Map(['prof_mild', 'prof_strong', 'prof_severe'].map((name, level) => [lexiconIndex(name), level + 1]));
const isProfanity = (entry: TermEntry | undefined): entry is TermEntry => entry !== undefined && entry.categories.some((c) => PROFANITY_CATEGORIES.has(c));
const SEVERITY_CATEGORY = [0, lexiconIndex('prof_mild'), lexiconIndex('prof_strong'), lexiconIndex('prof_severe')] as const;
const AFTER_MODELS_ENTRIES = PROFANITY_AFTER_MODELS.map(([stem, severity, prefix]) => ({ stem, prefix, entry: { categories: [SEVERITY_CATEGORY[severity]], weights: [1] } as TermEntry }));
const isQuote = (code: number): boolean => code === 39 || code === 0x2019;

/** `token` without the quote marks at its ends; a loop, as an anchored pattern with a global flag is quadratic on a long run of quotes. */
function withoutQuoteEdges(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && isQuote(token.charCodeAt(start))) start++;
  while (end > start && isQuote(token.charCodeAt(end - 1))) end--;
  return start === 0 && end === token.length ? token : token.slice(start, end);
}

const AFTER_MODELS_STARTS = new Set(PROFANITY_AFTER_MODELS.map(([stem]) => stem.charCodeAt(0)));

function afterModelsEntry(word: string): TermEntry | undefined {
  if (!AFTER_MODELS_STARTS.has(word.charCodeAt(0))) return undefined;
  for (const { stem, prefix, entry } of AFTER_MODELS_ENTRIES) {
    if (prefix ? word.startsWith(stem) : word === stem) return NOT_AFTER_MODELS.some((not) => word.startsWith(not)) ? undefined : entry;
  }
  return undefined;
}

/**
 * What the profanity policy reads in a token the lexicon has no entry for, the features being left as the models were
 * trained: the word inside quote marks ("'puta", "mierda'": a reported insult), the Spanish and Portuguese plural in
 * -es of a listed word ("maricones", "cabrones" beside "maricon"; the lexicon strips only -s), and the swear words
 * added after the models. `previous` is the token before, for the false friends ("en retard").
 */
export function profanityVariantEntry(token: string, previous: string): { word: string; entry: TermEntry } | undefined {
  const first = token.charCodeAt(0);
  const last = token.charCodeAt(token.length - 1);
  const quoted = isQuote(first) || isQuote(last);
  const word = quoted ? withoutQuoteEdges(token) : token;
  const plural = word.length >= 6 && word.endsWith('es');
  const added = afterModelsEntry(word);
  // Most tokens are none of the three: no table lookup for them (this runs on every text).
  if (!(quoted && word.length > 0) && !plural && added === undefined) return undefined;
  if (!termTable) termTable = buildTable();
  if (lookup(termTable, token) !== undefined) return undefined;
  const before = withoutQuoteEdges(previous);
  if (quoted) {
    const entry = lookup(termTable, word);
    if (isProfanity(entry)) return isFalseFriend(word, before) ? undefined : { word, entry };
  }
  if (plural && !NOT_PLURALS.has(word)) {
    const singular = word.slice(0, -2);
    const entry = termTable.get(singular);
    if (isProfanity(entry) && ES_PLURAL_STEM.test(singular) && !isFalseFriend(singular, before)) return { word: singular, entry };
  }
  return added === undefined ? undefined : { word, entry: added };
}

/** The single-word profanity terms by length, for reading a masked word ("f**k"); built on first use. */
let maskable: Map<number, Array<{ word: string; entry: TermEntry; level: number }>> | null = null;
let maskableGeneration = -1;
/** The longest mask worth reading: the longest maskable term (a longer run of letters and stars stands for none). */
let longestMaskable = 0;
const LETTERS_ONLY = /^\p{L}+$/u;
const STAR = 42;

/** A listed word's profanity level: 1 mild, 2 strong, 3 severe, 0 for a word that is not profanity. */
export function profanityLevel(entry: TermEntry): number {
  let level = 0;
  for (const category of entry.categories) level = Math.max(level, PROFANITY_LEVEL.get(category) ?? 0);
  return level;
}

function maskableTerms(): Map<number, Array<{ word: string; entry: TermEntry; level: number }>> {
  if (!termTable) termTable = buildTable();
  if (maskable !== null && maskableGeneration === tableGeneration) return maskable;
  maskable = new Map();
  longestMaskable = 0;
  for (const [word, entry] of termTable) {
    if (!isProfanity(entry) || !LETTERS_ONLY.test(word)) continue;
    const bucket = maskable.get(word.length) ?? [];
    bucket.push({ word, entry, level: profanityLevel(entry) });
    maskable.set(word.length, bucket);
    longestMaskable = Math.max(longestMaskable, word.length);
  }
  maskableGeneration = tableGeneration;
  return maskable;
}

/**
 * A swear word written with asterisks for some letters ("f**k", "p*tain", "a**hole"), which the tokenizer reads
 * without them ("fk"): the listed single words it can stand for, and the mildest of them. A mask has a star between
 * letters or two or more at its end, and at least two letters; stars around a word ("*sigh*") are emphasis, one star
 * after a word a footnote ("free*"). A mask whose letters alone are a listed word ("sh*t" read "sht", "shit**") is
 * left to the lexicon, which has counted it already.
 */
export function maskedProfanityEntry(raw: string): { word: string; entry: TermEntry } | undefined {
  const terms = maskableTerms();
  let start = 0;
  let end = raw.length;
  if (raw.charCodeAt(0) === STAR && raw.charCodeAt(end - 1) === STAR) {
    while (start < end && raw.charCodeAt(start) === STAR) start++;
    while (end > start && raw.charCodeAt(end - 1) === STAR) end--;
  }
  if (end - start > longestMaskable || start >= end || raw.charCodeAt(start) === STAR) return undefined;
  const mask = raw.slice(start, end).toLowerCase();
  let letterEnd = mask.length;
  while (letterEnd > 0 && mask.charCodeAt(letterEnd - 1) === STAR) letterEnd--;
  const trailing = mask.length - letterEnd;
  const internal = mask.lastIndexOf('*', letterEnd - 1) > 0;
  if (!internal && trailing < 2) return undefined;
  const letters = mask.replaceAll('*', '');
  if (letters.length < 2 || isProfanity(lookup(termTable!, letters))) return undefined;
  const candidates = terms.get(mask.length);
  if (candidates === undefined) return undefined;
  let best: { word: string; entry: TermEntry; level: number } | undefined;
  outer: for (const candidate of candidates) {
    const word = candidate.word;
    for (let i = 0; i < mask.length; i++) if (mask.charCodeAt(i) !== STAR && mask[i] !== word[i]) continue outer;
    if (best === undefined || candidate.level < best.level) best = candidate;
  }
  return best === undefined ? undefined : { word: best.word, entry: best.entry };
}

/** A lexicon term found in a token sequence: `words` tokens from `start`. */
export interface LexiconMatch {
  start: number;
  words: number;
  phrase: string;
  entry: TermEntry;
}

/**
 * English terms that are ordinary words of another language the models serve, recognised by the word before them:
 * French "en retard" (late), German "Bj." (Baujahr, the year a car was built). Checked on the realistic corpus's dev
 * messages, where these were the profanity policy's false flags in French and German (issue #27).
 */
const FALSE_FRIENDS = new Map<string, ReadonlySet<string>>([
  ['retard', new Set(['en', 'du', 'de', 'le', 'un', 'des', 'sans', 'avec', 'mon', 'ton', 'son', 'trop', 'peu', 'gros', 'petit', 'grand', 'max', 'minutes', 'min', 'heure', 'heures', 'jours', 'beaucoup', 'pas', 'léger', 'leger', 'quel'])],
  ['bj', new Set(['golf', 'polo', 'passat', 'baujahr', 'ez', 'km', 'tüv', 'tuv', 'kombi', 'auto', 'pkw', 'verkaufe', 'bmw', 'audi', 'opel', 'vw'])],
]);

function isFalseFriend(word: string, previous: string): boolean {
  const before = FALSE_FRIENDS.get(word);
  return before !== undefined && (before.has(previous) || previous === '__num__');
}

/** What lexiconMatches looks up for a token on its own: its entry, and whether a longer term starts with it. */
export interface TokenLexicon {
  entry: TermEntry | undefined;
  prefix: boolean;
  /** The table it was looked up in (tableGeneration). */
  generation: number;
}

/** The generation of the lexicon table in use (0 before the first is built): tokenLexicon's answers of another are stale. */
export const lexiconGeneration = (): number => (termTable ? tableGeneration : 0);

/** The lexicon's answer for one token, for callers that keep it with the token (the featurizer's token cache). */
export function tokenLexicon(token: string): TokenLexicon {
  if (!termTable) termTable = buildTable();
  return { entry: lookup(termTable, token), prefix: phrasePrefixes.has(token), generation: tableGeneration };
}

/**
 * The lexicon terms in `tokens`, in order of their first token. `singles` (when given) holds tokenLexicon's answer
 * for each token, used instead of looking the token up again while it is for the current table.
 */
export function lexiconMatches(tokens: readonly string[], singles?: ReadonlyArray<TokenLexicon>): LexiconMatch[] {
  if (!termTable) termTable = buildTable();
  const table = termTable;
  const found: LexiconMatch[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const single = singles !== undefined && singles[i]!.generation === tableGeneration ? singles[i]! : null;
    let phrase = '';
    for (let n = 0; n < maxPhraseLength && i + n < tokens.length; n++) {
      if (n > 0 && !(n === 1 && single !== null ? single.prefix : phrasePrefixes.has(phrase))) break;
      phrase = n === 0 ? tokens[i]! : `${phrase} ${tokens[i + n]!}`;
      const entry = n === 0 && single !== null ? single.entry : lookup(table, phrase);
      if (entry && !(n === 0 && isFalseFriend(phrase, i > 0 ? tokens[i - 1]! : ''))) found.push({ start: i, words: n + 1, phrase, entry });
    }
  }
  return found;
}

/**
 * The hits of the tokens `from` to `to` (exclusive) of the sequence `matches` was found in. A match
 * depends only on its own tokens, so a window of a long text takes its hits from the whole text's
 * matches instead of looking every phrase up again: the same hits, added in the same order.
 */
/** `scores`, when given, is a zeroed array of LEXICON_FEATURES.length to fill (the featurizer hands out views of its slab). */
export function lexiconHitsWithin(matches: readonly LexiconMatch[], from: number, to: number, scores: Float32Array = new Float32Array(LEXICON_FEATURES.length)): LexiconHits {
  const byCategory = new Map<number, string[]>();
  let maxProfanitySeverity = 0;
  // Matches are ordered by start: skip to the first one at `from` or later.
  let low = 0;
  let high = matches.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (matches[middle]!.start < from) low = middle + 1;
    else high = middle;
  }
  for (let m = low; m < matches.length && matches[m]!.start < to; m++) {
    const { start, words, phrase, entry } = matches[m]!;
    if (start + words > to) continue;
    for (let k = 0; k < entry.categories.length; k++) {
      const category = entry.categories[k]!;
      scores[category]! += entry.weights[k]!;
      const severityLevel = PROFANITY_SEVERITY_INDEX.indexOf(category);
      if (severityLevel >= 0) maxProfanitySeverity = Math.max(maxProfanitySeverity, severityLevel + 1);
      const list = byCategory.get(category);
      if (!list) byCategory.set(category, [phrase]);
      else if (list.length < 8) list.push(phrase);
    }
  }
  return { scores, matches: byCategory, maxProfanitySeverity };
}

export function lexiconHits(tokens: readonly string[]): LexiconHits {
  return lexiconHitsWithin(lexiconMatches(tokens), 0, tokens.length);
}

export function lexiconScore(hits: LexiconHits, category: string): number {
  return hits.scores[lexiconIndex(category)] ?? 0;
}
