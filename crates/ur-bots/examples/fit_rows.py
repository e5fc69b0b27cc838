"""Fits other model forms to the rows `dump_rows` writes, and prints held-out
RMSE in percentage points (the last fifth of the rows is held out).

    python3 fit_rows.py m3.csv SQUARE_FEATURES   (108 on regency-murray: 4 per path position)

Needs numpy and scikit-learn. A research aid: the engine's models are fitted in Rust.
"""
import numpy as np, sys, time
from sklearn.linear_model import Ridge
from sklearn.neural_network import MLPRegressor
from sklearn.ensemble import HistGradientBoostingRegressor
d = np.loadtxt(sys.argv[1], delimiter=',')
y = d[:,0]; F = d[:,1:39]; S = d[:,39:39+int(sys.argv[2])]; R = d[:,39+int(sys.argv[2]):]
n = len(y); tr = np.arange(n) < int(n*0.8); te = ~tr
def rmse(p): return 100*np.sqrt(np.mean((p - y[te])**2))
lg = lambda p: np.log(np.clip(p,1e-4,1-1e-4)/(1-np.clip(p,1e-4,1-1e-4)))
sig = lambda z: 1/(1+np.exp(-z))
print("std of y (pp)", 100*y[te].std())
for name, X in [("feat", F), ("feat+sq", np.hstack([F,S])), ("feat+sq+raw", np.hstack([F,S,R]))]:
    m = Ridge(alpha=1e-3).fit(X[tr], lg(y[tr])); print(name, "ridge-logit", round(rmse(sig(m.predict(X[te]))),3), flush=True)
X = np.hstack([F,S,R])
t=time.time(); m = HistGradientBoostingRegressor(max_iter=500, learning_rate=0.1, max_leaf_nodes=63).fit(X[tr], y[tr]); print("hgb", round(rmse(m.predict(X[te])),3), round(time.time()-t,1), flush=True)
for h in [(64,), (128,64)]:
    t=time.time(); m = MLPRegressor(hidden_layer_sizes=h, max_iter=60, early_stopping=True, random_state=1).fit(X[tr], y[tr]); print("mlp", h, round(rmse(m.predict(X[te])),3), round(time.time()-t,1), flush=True)
