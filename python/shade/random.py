"""shade.random: NumPy's random streams, bit for bit.

``RandomState`` (MT19937, NumPy's legacy stream) and ``Generator`` / ``default_rng`` (PCG64
seeded through SeedSequence) return the same numbers as NumPy 1.24 for the same seed. The
module-level functions draw from a global RandomState, as ``numpy.random``'s do; ``seed``
reseeds it.
"""
from ._shade._random import RandomState, Generator, PCG64, default_rng  # noqa: F401

_rand = RandomState()

seed = _rand.seed
get_state = _rand.get_state
set_state = _rand.set_state
random_sample = _rand.random_sample
random = _rand.random
rand = _rand.rand
randn = _rand.randn
randint = _rand.randint
standard_normal = _rand.standard_normal
normal = _rand.normal
uniform = _rand.uniform
standard_exponential = _rand.standard_exponential
exponential = _rand.exponential
standard_gamma = _rand.standard_gamma
gamma = _rand.gamma
beta = _rand.beta
poisson = _rand.poisson
binomial = _rand.binomial
permutation = _rand.permutation
shuffle = _rand.shuffle
choice = _rand.choice
multivariate_normal = _rand.multivariate_normal
ranf = sample = random_sample
