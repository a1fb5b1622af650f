# converts hand-written compact source (one message per line) to JSONL; no text is generated here
# block header: "== KIND topic words"   (KIND: H, N, O)
# line: "codes|platform|text"  codes comma-separated: t ts h p s sp v f sh pr, or - for none
import json, sys
M={'t':'toxicity','ts':'toxicity_severe','h':'hate','p':'profanity','s':'sexual','sp':'spam','v':'violence','f':'flirtation','sh':'self_harm','pr':'self_promotion'}
K={'H':'harmful','N':'hard_negative','O':'ordinary'}
PL={'chat','forum','marketplace','game','dating','comments','social','review'}
src,out=sys.argv[1],sys.argv[2]
kind=topic=None; rows=[]
for n,l in enumerate(open(src,encoding='utf8'),1):
    l=l.rstrip('\n')
    if not l.strip(): continue
    if l.startswith('== '):
        _,k,t=l.split(' ',2); kind=K[k]; topic=t; continue
    c,p,text=l.split('|',2)
    labs=[] if c=='-' else [M[x] for x in c.split(',')]
    assert p in PL,(n,p)
    if kind=='harmful': assert labs,(n,l)
    else: assert set(labs)<= {'profanity','sexual','spam'},(n,l)
    if 'toxicity_severe' in labs or 'hate' in labs: assert 'toxicity' in labs,(n,l)
    rows.append(json.dumps({"text":text.strip(),"labels":labs,"lang":"en","platform":p,"kind":kind,"topic":topic},ensure_ascii=False))
open(out,'w',encoding='utf8').write('\n'.join(rows)+'\n')
print(out,len(rows))
