// shade::dist's Allreduce against a plain MPI_Allreduce loop on the same buffers, 1 KiB to
// 64 MiB of float32 (issue 20: shade's overhead <= 5%). BM_Pair alternates the two calls inside
// one loop and times each, so that the load of a shared machine hits both alike; its counters
// are the mean microseconds of each and shade's overhead in percent. Run under mpirun, e.g.
//   mpirun --allow-run-as-root -np 2 ./build/bench/bench_dist --benchmark_repetitions=5
// Every rank runs every benchmark with the same fixed iteration count (an adaptive count could
// differ between ranks and deadlock the collective); rank 0 reports.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "shade/dist.h"

namespace {

// Same total bytes per size: many iterations for small buffers, a few for large ones.
int Iterations(std::size_t bytes) {
  return static_cast<int>(std::clamp<std::size_t>((std::size_t{256} << 20) / bytes, 5, 20000));
}

shade::NDArray Buffer(std::size_t bytes) {
  const shade::index_t n = static_cast<shade::index_t>(bytes / sizeof(float));
  shade::NDArray a = shade::NDArray::Empty({n}, shade::kFloat32);
  a.Fill(0.0);  // sums of zeros stay zero: no overflow, no denormals, over any iteration count
  return a;
}

void BM_ShadeAllreduce(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  const shade::dist::Communicator world = shade::dist::Communicator::World();
  shade::NDArray x = Buffer(bytes);
  world.Barrier();
  for (auto _ : state) {
    world.Allreduce(x, shade::dist::ReduceOp::kSum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void BM_MpiAllreduce(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  shade::NDArray x = Buffer(bytes);
  float* data = x.data<float>();
  const int n = static_cast<int>(bytes / sizeof(float));
  MPI_Barrier(MPI_COMM_WORLD);
  for (auto _ : state) {
    MPI_Allreduce(MPI_IN_PLACE, data, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void BM_Pair(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  const shade::dist::Communicator world = shade::dist::Communicator::World();
  shade::NDArray x = Buffer(bytes);
  float* data = x.data<float>();
  const int n = static_cast<int>(bytes / sizeof(float));
  double shade_s = 0, mpi_s = 0;
  world.Barrier();
  for (auto _ : state) {
    const auto t0 = Clock::now();
    world.Allreduce(x, shade::dist::ReduceOp::kSum);
    const auto t1 = Clock::now();
    MPI_Allreduce(MPI_IN_PLACE, data, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    const auto t2 = Clock::now();
    shade_s += std::chrono::duration<double>(t1 - t0).count();
    mpi_s += std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(std::chrono::duration<double>(t2 - t0).count());
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["shade_us"] = 1e6 * shade_s / iters;
  state.counters["mpi_us"] = 1e6 * mpi_s / iters;
  state.counters["overhead_pct"] = 100.0 * (shade_s / mpi_s - 1.0);
}

void Register() {
  for (std::size_t bytes = 1024; bytes <= (std::size_t{64} << 20); bytes *= 4) {
    benchmark::RegisterBenchmark("BM_Pair", BM_Pair)
        ->Arg(static_cast<std::int64_t>(bytes))
        ->Iterations(Iterations(bytes))
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  // The two loops separately, interleaved by size.
  for (std::size_t bytes = 1024; bytes <= (std::size_t{64} << 20); bytes *= 4) {
    benchmark::RegisterBenchmark("BM_ShadeAllreduce", BM_ShadeAllreduce)
        ->Arg(static_cast<std::int64_t>(bytes))
        ->Iterations(Iterations(bytes))
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_MpiAllreduce", BM_MpiAllreduce)
        ->Arg(static_cast<std::int64_t>(bytes))
        ->Iterations(Iterations(bytes))
        ->Unit(benchmark::kMicrosecond);
  }
}

// Reports nothing (ranks other than 0).
class NullReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  shade::dist::Environment env = shade::dist::Init(&argc, &argv);
  benchmark::Initialize(&argc, argv);
  Register();
  if (shade::dist::Communicator::World().rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    NullReporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
  return 0;
}
