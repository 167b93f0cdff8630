// Trains an MLP or a small CNN on Fashion-MNIST with shade and prints the test accuracy after
// every epoch; the last line is "final test accuracy: X". Options: --help.
// Exit status: 0 done, 1 data or file error, 2 bad options.
#include <unistd.h>
#include <xmmintrin.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "cnn.h"
#include "data_parallel.h"
#include "idx.h"
#include "mlp.h"
#include "options.h"
#include "shade/backend/cpu/parallel.h"
#include "train.h"
#ifdef SHADE_HAVE_DIST
#include "dist_exchange.h"
#endif

namespace {

using namespace fashion_mnist;  // NOLINT(build/namespaces)

// One thread count for shade's kernels and for the GEMM behind dot() (shade passes it on to
// the BLAS), so that --threads=1 really runs on one core.
void SetThreads(int threads) {
  if (threads > 0) shade::SetNumThreads(threads);
}

// The data-parallel driver of --dist / --shards (null for plain training).
std::unique_ptr<DataParallel> MakeParallel(const TrainParam& p, Model* model) {
  if (p.dist) {
#ifdef SHADE_HAVE_DIST
    return std::make_unique<DataParallel>(
        model,
        std::make_unique<MpiExchange>(shade::dist::Communicator::World(),
                                      static_cast<std::size_t>(p.bucket_kb) * 1024),
        p.shards);
#else
    SHADE_THROW << "--dist: this fashion_mnist was built without MPI (install libopenmpi-dev "
                   "and reconfigure with -DSHADE_WITH_MPI=ON)";
#endif
  }
  if (p.shards > 0) {
    return std::make_unique<DataParallel>(model, std::make_unique<LocalExchange>(), p.shards);
  }
  return nullptr;
}

int Train(const TrainParam& p) {
  SetThreads(p.threads);
  // Tiny gradients late in training would otherwise become denormals, which are many times
  // slower on x86; flushing them to zero does not change what the network learns.
  _mm_setcsr(_mm_getcsr() | 0x8040);
  if (!p.save.empty()) CheckWritable(p.save);

  const Split train = LoadSplit(p.data_dir, "train");
  const Split test = LoadSplit(p.data_dir, "t10k");
  std::unique_ptr<Model> model;
  if (p.model == kCnn) {
    model = std::make_unique<Cnn>(p.batch);
  } else {
    model = std::make_unique<Mlp>(p.batch);
  }
  model->set_autograd(p.autograd);
  if (p.load.empty()) {
    Rng rnd(static_cast<unsigned>(p.seed));
    model->Init(&rnd);
  } else {
    LoadModel(p.load, model.get());
  }
  std::unique_ptr<DataParallel> parallel = MakeParallel(p, model.get());
  // Only process 0 of a data-parallel run prints and saves.
  const bool root = parallel == nullptr || parallel->rank() == 0;
  if (root) {
    std::printf(
        "shade Fashion-MNIST: %s (%s), %d epochs, batch %d, lr %g, momentum %g, %d threads, "
        "%lld training / %lld test images\n",
        model->name(), p.autograd ? "autograd" : "hand-written backward", p.epochs, p.batch,
        static_cast<double>(p.lr), static_cast<double>(p.momentum), shade::GetNumThreads(),
        static_cast<long long>(p.train_limit > 0 && p.train_limit < train.count ? p.train_limit
                                                                                : train.count),
        static_cast<long long>(p.test_limit > 0 && p.test_limit < test.count ? p.test_limit
                                                                             : test.count));
  }
  if (root && parallel != nullptr) {
    std::printf("data-parallel: %d processes, global batch %d, %s\n", parallel->size(), p.batch,
                p.shards > 0 ? ("gradients of " + std::to_string(p.shards) +
                                " slices summed in slice order (deterministic)")
                                   .c_str()
                             : "gradients summed by bucketed Allreduce");
  }
  std::fflush(stdout);
  Trainer trainer(model.get(), static_cast<std::uint64_t>(p.seed));
  if (parallel != nullptr) {
    DataParallel* dp = parallel.get();
    trainer.set_step([dp](const Matrix& x, const Vector& labels, float lr, float momentum) {
      return dp->Step(x, labels, lr, momentum);
    });
  }
  ProgressBar bar(root && ::isatty(STDOUT_FILENO) != 0, stdout);
  double accuracy = trainer.Evaluate(test, p.test_limit);
  float lr = p.lr;
  for (int epoch = 1; epoch <= p.epochs; ++epoch) {
    const EpochStats st =
        trainer.TrainEpoch(train, p.train_limit, lr, p.momentum, epoch, p.epochs, &bar);
    lr *= p.lr_decay;
    accuracy = trainer.Evaluate(test, p.test_limit);
    bar.Clear();
    if (!root) continue;
    std::printf("epoch %d/%d loss %.4f time %.3f s cpu %.3f s %.0f img/s test accuracy %.4f\n",
                epoch, p.epochs, st.loss, st.seconds, st.cpu_seconds,
                st.seconds > 0 ? static_cast<double>(st.images) / st.seconds : 0.0, accuracy);
    std::fflush(stdout);
  }
  if (!root) return 0;
  if (!p.save.empty()) {
    SaveModel(p.save, *model);
    std::printf("weights saved to %s\n", p.save.c_str());
  }
  std::printf("final test accuracy: %.4f\n", accuracy);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CommandLine cl;
  try {
    cl = ParseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fashion_mnist: %s\nRun fashion_mnist --help to see the options.\n",
                 e.what());
    return 2;
  }
  if (cl.help) {
    std::printf("%s", HelpText().c_str());
    return 0;
  }
#ifdef SHADE_HAVE_DIST
  // MPI runs only for --dist, so that plain runs need no mpirun.
  std::unique_ptr<shade::dist::Environment> mpi;
  if (cl.param.dist) mpi = std::make_unique<shade::dist::Environment>(nullptr, nullptr);
#endif
  try {
    return Train(cl.param);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "\nfashion_mnist: error: %s\n", e.what());
#ifdef SHADE_HAVE_DIST
    // The other processes may wait in a collective: end the whole job.
    if (mpi != nullptr) shade::dist::Abort(1);
#endif
    return 1;
  }
}
