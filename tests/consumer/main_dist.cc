// Built against an installed shade with shade::dist: sums the ranks; exits 0 when the sum is right.
#include <cstdint>
#include <iostream>

#include "shade/dist.h"

int main(int argc, char** argv) {
  shade::dist::Environment env = shade::dist::Init(&argc, &argv);
  const shade::dist::Communicator world = shade::dist::Communicator::World();
  shade::NDArray x = shade::NDArray::Empty({1}, shade::kInt64);
  x.at<std::int64_t>(0) = world.rank();
  world.Allreduce(x, shade::dist::ReduceOp::kSum);
  const std::int64_t want = static_cast<std::int64_t>(world.size()) * (world.size() - 1) / 2;
  std::cout << "consumer_dist: rank " << world.rank() << " of " << world.size() << ", sum "
            << x.at<std::int64_t>(0) << "\n";
  return x.at<std::int64_t>(0) == want ? 0 : 1;
}
