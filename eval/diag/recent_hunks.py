#!/usr/bin/env python3
"""Issue 23, sixth pass (docs/quality.md): how many of the needed lines
of each dev case's touched files lie in the hunks of the last K commits
that touched the file (at the parent), against the share of the file's
lines those hunks cover.

Usage: recent_hunks.py RUN.jsonl K
RUN.jsonl is `eval run -json` output (it names the cases); the trees are
the evaluation's cache ($EVAL_CACHE, default /tmp/acode-eval). Hunks from
`git log -p -U0 -n K HEAD -- FILE`, new side; a pure deletion covers 2
lines before to 3 after, as the evaluation counts an insertion.
"""
import json,sys,re,subprocess,os
CASES=os.path.join(os.path.dirname(os.path.abspath(__file__)),"..","cases","cases.jsonl")
CACHE=os.environ.get("EVAL_CACHE","/tmp/acode-eval")
cases={json.loads(l)['commit']:json.loads(l) for l in open(CASES)}
rows=[json.loads(l) for l in open(sys.argv[1])]
K=int(sys.argv[2])
tot=dict(n=0,hit=0,lines=0,cov=0,filesn=0,filehit=0)
for r in rows:
    c=cases[r['Commit']]
    tree=CACHE+'/%s/%s'%(r['Repo'].replace('/','+'),c['parent'])
    for nd in c['needed']:
        p=nd['path']; fp=os.path.join(tree,p)
        if not os.path.exists(fp): continue
        nlines=sum(1 for _ in open(fp,errors='replace'))
        out=subprocess.run(['git','-C',tree,'log','--no-merges','-p','-U0','--format=%x00','-n',str(K),'HEAD','--',p],capture_output=True,text=True,errors='replace',env=dict(os.environ,GIT_OPTIONAL_LOCKS='0')).stdout
        cov=set()
        for m in re.finditer(r'^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@',out,re.M):
            s=int(m.group(1)); n=int(m.group(2)) if m.group(2) is not None else 1
            if n==0: cov.update(range(s-2,s+4))
            else: cov.update(range(s,s+n))
        cov={x for x in cov if 1<=x<=nlines}
        need=set()
        for a,b in nd['ranges']: need.update(range(a,b+1))
        tot['n']+=len(need); tot['hit']+=len(need&cov); tot['lines']+=nlines; tot['cov']+=len(cov)
        tot['filesn']+=1; tot['filehit']+= 1 if need&cov else 0
print(K, tot, 'needed in recent hunks %.3f, base rate %.3f, lift %.1f, files with any %.2f'%(tot['hit']/tot['n'],tot['cov']/tot['lines'],(tot['hit']/tot['n'])/(tot['cov']/tot['lines']),tot['filehit']/tot['filesn']))
