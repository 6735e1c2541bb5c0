#!/usr/bin/env python3
"""Fits the win/draw/loss model of engine/src/search/wdl.rs on Brudno's self-play data.

    brudno datadump data/gen1.bin > wdl.txt     # "<FEN> | <score> | <result>", White's view
    python3 scripts/fit_wdl.py wdl.txt          # needs numpy

Model (Stockfish's form): P(win) = 1/(1+exp((a-s)/b)), P(loss) = 1/(1+exp((a+s)/b)), draw
the rest; s the score from the side to move, a and b quadratic in m = clamp(material,17,78)/58
(pawn 1, minor 3, rook 5, queen 9, both sides). The six coefficients minimise the negative
log-likelihood of the games' results (Nelder-Mead on a 400,000-position sample, seed 1);
the script prints them, the likelihood on all positions, and observed against predicted
win and loss rates by score bucket and draw rates by material bucket.
"""
import sys

import numpy as np
V={'p':1,'n':3,'b':3,'r':5,'q':9}
S=[];M=[];R=[]
for line in open(sys.argv[1]):
    fen,score,res=[x.strip() for x in line.split('|')]
    board,stm=fen.split()[0],fen.split()[1]
    m=sum(V.get(c.lower(),0) for c in board)
    s=int(score); r={'1-0':1,'0-1':-1}.get(res,0)
    if stm=='b': s=-s; r=-r
    if abs(s)>2000: continue
    S.append(s);M.append(m);R.append(r)
S=np.array(S,float);M=np.array(M,float);R=np.array(R)
print(len(S), "W/D/L", (R==1).mean(), (R==0).mean(), (R==-1).mean())
# model: pw = sig((s-a)/b), pl = sig((-s-a)/b), a,b linear in m' = clamp(m,17,78)/58
mm=np.clip(M,17,78)/58.0
def nll(p):
    a=p[0]+p[1]*mm+p[2]*mm**2; b=p[3]+p[4]*mm+p[5]*mm**2
    b=np.maximum(b,1.0)
    pw=1/(1+np.exp(-(S-a)/b)); pl=1/(1+np.exp(-(-S-a)/b)); pd=np.clip(1-pw-pl,1e-6,1)
    pw=np.clip(pw,1e-6,1); pl=np.clip(pl,1e-6,1)
    return -np.mean(np.where(R==1,np.log(pw),np.where(R==-1,np.log(pl),np.log(pd))))
p=np.array([150,0,0,80,0,0],float)
# simple Nelder-Mead
def nm(f,x0,iters=1500):
    n=len(x0); pts=[x0]+[x0+np.eye(n)[i]*(20 if i%3==0 else 20) for i in range(n)]
    vals=[f(x) for x in pts]
    for it in range(iters):
        o=np.argsort(vals); pts=[pts[i] for i in o]; vals=[vals[i] for i in o]
        c=np.mean(pts[:-1],axis=0); xr=c+(c-pts[-1]); fr=f(xr)
        if fr<vals[0]:
            xe=c+2*(c-pts[-1]); fe=f(xe)
            if fe<fr: pts[-1],vals[-1]=xe,fe
            else: pts[-1],vals[-1]=xr,fr
        elif fr<vals[-2]: pts[-1],vals[-1]=xr,fr
        else:
            xc=c+0.5*(pts[-1]-c); fc=f(xc)
            if fc<vals[-1]: pts[-1],vals[-1]=xc,fc
            else:
                pts=[pts[0]+0.5*(q-pts[0]) for q in pts]; vals=[f(q) for q in pts]
    return pts[0],vals[0]
idx=np.random.default_rng(1).choice(len(S),min(400000,len(S)),replace=False)
S0,M0,R0,mm0=S,M,R,mm
S,M,R,mm=S[idx],M[idx],R[idx],mm[idx]
x,v=nm(nll,p)
print("params",np.round(x,2),"nll",v)
S,M,R,mm=S0,M0,R0,mm0
print("nll all",nll(x))
# calibration check by buckets
a=x[0]+x[1]*mm+x[2]*mm**2; b=np.maximum(x[3]+x[4]*mm+x[5]*mm**2,1)
pw=1/(1+np.exp(-(S-a)/b)); pl=1/(1+np.exp(-(-S-a)/b))
for lo,hi in [(-2000,-300),(-300,-100),(-100,-30),(-30,30),(30,100),(100,300),(300,2000)]:
    k=(S>=lo)&(S<hi)
    print(f"{lo:6}..{hi:5} n={k.sum():7} win obs {np.mean(R[k]==1):.3f} pred {pw[k].mean():.3f} | loss obs {np.mean(R[k]==-1):.3f} pred {pl[k].mean():.3f}")
for lo,hi in [(0,30),(30,50),(50,70),(70,80)]:
    k=(M>=lo)&(M<hi)
    print(f"mat {lo}..{hi} n={k.sum()} win obs {np.mean(R[k]==1):.3f} pred {pw[k].mean():.3f} draw obs {np.mean(R[k]==0):.3f} pred {(1-pw[k]-pl[k]).mean():.3f}")
