// shade::dist's Allreduce against a plain MPI_Allreduce loop on the same buffers, 1 KiB to
// 64 MiB of float32 (issue 20: shade's overhead <= 5%). BM_Pair alternates the two calls inside
// one loop (barrier before each, order alternating) and times each, so that the load of a
// shared machine hits both alike; its counters are the median microseconds per call of each and
// shade's overhead in percent. Run under mpirun, e.g.
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

double Median(std::vector<double>* v) {
  std::nth_element(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(v->size() / 2), v->end());
  return (*v)[v->size() / 2];
}

void BM_Pair(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  const shade::dist::Communicator world = shade::dist::Communicator::World();
  shade::NDArray x = Buffer(bytes);
  float* data = x.data<float>();
  const int n = static_cast<int>(bytes / sizeof(float));
  std::vector<double> shade_s, mpi_s;
  world.Barrier();
  // Each call starts after a barrier (untimed), so that neither absorbs the other ranks'
  // lateness, and the order alternates so that neither always runs first.
  const auto timed = [&](auto&& call) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto t0 = Clock::now();
    call();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const auto shade_call = [&] { world.Allreduce(x, shade::dist::ReduceOp::kSum); };
  const auto mpi_call = [&] {
    MPI_Allreduce(MPI_IN_PLACE, data, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  };
  bool shade_first = true;
  for (auto _ : state) {
    double a = 0, b = 0;
    if (shade_first) {
      a = timed(shade_call);
      b = timed(mpi_call);
    } else {
      b = timed(mpi_call);
      a = timed(shade_call);
    }
    shade_first = !shade_first;
    shade_s.push_back(a);
    mpi_s.push_back(b);
    state.SetIterationTime(a + b);
  }
  // Medians per call: a rank descheduled by the machine's other load makes a few calls very
  // slow, which would dominate a mean.
  const double shade_med = Median(&shade_s), mpi_med = Median(&mpi_s);
  state.counters["shade_us"] = 1e6 * shade_med;
  state.counters["mpi_us"] = 1e6 * mpi_med;
  state.counters["overhead_pct"] = 100.0 * (shade_med / mpi_med - 1.0);
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
