"""Shared setup of the shade Python tests: NumPy as the oracle under NEP 50 (the promotion rules
shade implements; NumPy 1.24 has them behind _set_promotion_state), and a deterministic, bounded
Hypothesis profile so the suite takes the same few seconds on every run."""
import numpy as np
from hypothesis import HealthCheck, settings

np._set_promotion_state("weak")

settings.register_profile(
    "shade",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile("shade")
