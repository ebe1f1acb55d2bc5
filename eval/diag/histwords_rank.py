#!/usr/bin/env python3
"""Issue 23, sixth pass (docs/quality.md): where the words of a file's
history would rank each dev case's needed files.

Usage: histwords_rank.py RUN.jsonl [COMMITS]
RUN.jsonl is `eval run -json` output (its included items say which needed
files the main pack held); the trees are the evaluation's cache
($EVAL_CACHE, default /tmp/acode-eval). For each case: the subjects of
the parent's last COMMITS (300) commits, sweeps of more than 40 files out,
each file a document of its commits' subject words (an approximation of
pack.Terms: camelCase/snake split, stop words and plural s out), BM25 of
the query over them; printed: how many needed files rank in the top
1/3/5/10 of the files that exist in the tree, overall and for the files
the main pack missed.
"""
import json,sys,re,subprocess,math,os
CASES=os.path.join(os.path.dirname(os.path.abspath(__file__)),"..","cases","cases.jsonl")
CACHE=os.environ.get("EVAL_CACHE","/tmp/acode-eval")
STOP=set("a an and are as at be but by for from has have in into is it its of on or that the this to was were will with not no do does did so than then there these those they we you your i he she our can could should would may might must if else when while which who whom what where why how all any both each few more most other some such only own same too very just also about above after again against below between during before over under up down out off further once here because until doesn done being been am".split())
def terms(text):
    out=[]
    for w in re.findall(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*",text):
        parts=re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+",w)
        for p in parts:
            p=p.lower()
            if len(p)<2 or p in STOP: continue
            if p.endswith('s') and not p.endswith('ss') and len(p)>3: p=p[:-1]
            out.append(p)
    return out
rows=[json.loads(l) for l in open(sys.argv[1])]
N=int(sys.argv[2]) if len(sys.argv)>2 else 300
fmt='%x00%s'
cases={json.loads(l)['commit']:json.loads(l) for l in open(CASES)}
res=[]
for r in rows:
    c=cases[r['Commit']]
    tree=CACHE+'/%s/%s'%(r['Repo'].replace('/','+'),c['parent'])
    out=subprocess.run(['git','-C',tree,'log','--no-renames','--no-merges','--name-only','--format='+fmt,'-n',str(N),'HEAD','--'],capture_output=True,text=True,env=dict(os.environ,GIT_OPTIONAL_LOCKS='0')).stdout
    commits=[]
    for block in out.split('\x00')[1:]:
        lines=block.split('\n')
        subj=lines[0]; files=[l for l in lines[1:] if l]
        if 0<len(files)<=40: commits.append((terms(subj),files))
    q=list(dict.fromkeys(terms(c['query'])))
    tf={};dl={}
    for t,fs in commits:
        for f in fs:
            dl[f]=dl.get(f,0)+len(t)
            for x in t:
                if x in q: tf.setdefault(f,{}); tf[f][x]=tf[f].get(x,0)+1
    n=len(dl); avg=sum(dl.values())/max(1,n)
    df={x:sum(1 for f in tf if x in tf[f]) for x in q}
    sc={}
    for f,row in tf.items():
        if not os.path.exists(os.path.join(tree,f)): continue
        norm=1.2*(0.25+0.75*dl[f]/avg)
        sc[f]=sum(math.log(1+(n-df[x]+.5)/(df[x]+.5))*v*2.2/(v+norm) for x,v in row.items())
    rank=sorted(sc,key=lambda f:-sc[f])
    inc=set(i['path'] for i in r['Results'][0]['Included'])
    for nd in c['needed']:
        p=nd['path']
        hr=rank.index(p)+1 if p in rank else None
        res.append((r['Repo'],p,p in inc,hr,len(rank)))
def summ(sel,label):
    n=len(sel)
    for k in (1,3,5,10):
        print(label,'top%d'%k, sum(1 for x in sel if x[3] and x[3]<=k),'/',n)
    print(label,'no score',sum(1 for x in sel if not x[3]))
summ(res,'all')
summ([x for x in res if not x[2]],'missed')
for x in res:
    if not x[2]: print(x)
