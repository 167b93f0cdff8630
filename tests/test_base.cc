// Smoke test of the base layer; the full suite for base lives here too.
#include <gtest/gtest.h>

#include "shade/shade.h"

TEST(Base, IndexIs64Bit) { static_assert(sizeof(shade::index_t) == 8, "index_t"); }
