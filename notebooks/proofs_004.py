# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Notes 004: the proof that the exponential mechanism is $2\varepsilon$-DP, step by step
#
# Source: the lecture notes (seed `004`), "CLAIM: Exponential Mechanism is $2\epsilon$-DP" and
# its PROOF. Each step is a registered claim (`kind="proof-step"`), decided exactly on every
# pair of integer utilities of a finite family with $e^\varepsilon = 2$ (the steps hold for
# every utility; the engine cannot decide that, and the registry says so). The bound
# $e^{2\varepsilon}$ is approached but not attained (erratum N7).


# %%
from dpsym.claims import verify_step as step

# %% [markdown]
# **Step 1.** $|u(x,s) - u(x',s)| \le \Delta u \Rightarrow \exp(\frac{\varepsilon u(x',s)}{\Delta
# u}) \le e^\varepsilon\exp(\frac{\varepsilon u(x,s)}{\Delta u})$.


# %%
step("004.exp.privacy.s1")


# %% [markdown]
# **Step 2.** $\frac{\Pr[M(x) = s]}{\Pr[M(x') = s]} = \frac{\exp(\varepsilon u(x,s)/\Delta
# u)}{\exp(\varepsilon u(x',s)/\Delta u)}\cdot\frac{\sum_s\exp(\varepsilon u(x',s)/\Delta
# u)}{\sum_s \exp(\varepsilon u(x,s)/\Delta u)}$.


# %%
step("004.exp.privacy.s2")


# %% [markdown]
# **Step 3.** $\le e^\varepsilon\exp(\varepsilon(u(x,s) - u(x',s))/\Delta u)$ (the ratio of the
# sums, by step 1).


# %%
step("004.exp.privacy.s3")


# %% [markdown]
# **Step 4.** $\le e^{2\varepsilon}$.


# %%
step("004.exp.privacy.s4")
