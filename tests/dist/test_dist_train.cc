// Data-parallel training of the Fashion-MNIST example (examples/fashion_mnist/data_parallel.h)
// under mpirun -np 2: a few SGD steps on synthetic images, each rank checking its weights
// against a run of the same steps in this one process.
//  - Allreduce mode (--dist): equal to the plain single-process run within float rounding.
//  - Deterministic mode (--dist --shards=S): equal bit for bit to the single-process run with
//    --shards=S (S slices summed in slice order), for S = 2 and 4, MLP and CNN.
// Every rank also checks that it ends with the same weights as rank 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "../../examples/fashion_mnist/cnn.h"
#include "../../examples/fashion_mnist/data_parallel.h"
#include "../../examples/fashion_mnist/dist_exchange.h"
#include "../../examples/fashion_mnist/mlp.h"
#include "../../examples/fashion_mnist/train.h"
#include "shade/backend/cpu/parallel.h"
#include "shade/dist.h"

namespace {

using namespace fashion_mnist;  // NOLINT(build/namespaces)

// `n` random images (pixels in [0, 1)) with random labels; the same on every rank.
Split SyntheticSplit(shade::index_t n) {
  Split s;
  s.count = n;
  std::mt19937 gen(1234);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  s.images.resize(static_cast<std::size_t>(n * kImageSize));
  for (float& v : s.images) v = pixel(gen);
  for (shade::index_t i = 0; i < n; ++i) s.labels.push_back(static_cast<std::uint8_t>(gen() % 10));
  return s;
}

std::unique_ptr<Model> MakeModel(bool cnn) {
  std::unique_ptr<Model> m;
  if (cnn) {
    m = std::make_unique<Cnn>(128);
  } else {
    m = std::make_unique<Mlp>(128);
  }
  Rng rnd(7u);
  m->Init(&rnd);
  return m;
}

// Every weight of the model, flattened in the order of Model::Weights().
std::vector<float> Flat(Model* m) {
  std::vector<float> out;
  for (const Matrix& w : m->Weights()) {
    for (shade::index_t i = 0; i < w.size(0); ++i) {
      for (shade::index_t j = 0; j < w.size(1); ++j) out.push_back(w[i][j]);
    }
  }
  return out;
}

struct TrainRun {
  std::vector<float> weights;
  std::vector<double> losses;  // one per epoch
};

// Two epochs over `data` (global batch 128; the last batch is partial when the count is not
// a multiple; the CNN, slow under the sanitizers, gets one). `exchange` null: plain
// Model::TrainStep.
TrainRun Train(const Split& data, bool cnn, std::unique_ptr<GradientExchange> exchange,
               int shards) {
  std::unique_ptr<Model> model = MakeModel(cnn);
  std::unique_ptr<DataParallel> parallel;
  Trainer trainer(model.get(), 3);
  if (exchange != nullptr) {
    parallel = std::make_unique<DataParallel>(model.get(), std::move(exchange), shards);
    DataParallel* dp = parallel.get();
    trainer.set_step([dp](const Matrix& x, const Vector& y, float lr, float momentum) {
      return dp->Step(x, y, lr, momentum);
    });
  }
  TrainRun result;
  const int epochs = cnn ? 1 : 2;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    result.losses.push_back(trainer.TrainEpoch(data, 0, 0.05f, 0.9f, epoch, epochs, nullptr).loss);
  }
  result.weights = Flat(model.get());
  return result;
}

std::unique_ptr<GradientExchange> Mpi(std::size_t bucket_bytes = 64 * 1024) {
  return std::make_unique<MpiExchange>(shade::dist::Communicator::World(), bucket_bytes);
}

// This rank's weights equal rank 0's, bit for bit.
void ExpectSameAsRankZero(const std::vector<float>& w) {
  const shade::dist::Communicator c = shade::dist::Communicator::World();
  std::vector<float> zero = w;
  c.Broadcast(shade::NDArray::FromBlob(zero.data(), {static_cast<shade::index_t>(zero.size())},
                                       shade::TypeMeta::Make<float>()),
              0);
  EXPECT_EQ(std::memcmp(zero.data(), w.data(), sizeof(float) * w.size()), 0)
      << "rank " << c.rank() << " ended with weights different from rank 0's";
}

class DistTrain : public ::testing::Test {
 protected:
  void SetUp() override { shade::SetNumThreads(1); }
};

TEST_F(DistTrain, AllreduceMatchesOneProcessWithinRounding) {
  const Split data = SyntheticSplit(600);  // 4 full batches and one of 88
  const TrainRun plain = Train(data, false, nullptr, 0);
  // A small bucket so that the MLP's gradient travels in several overlapping buckets.
  const TrainRun parallel = Train(data, false, Mpi(64 * 1024), 0);
  ASSERT_EQ(plain.weights.size(), parallel.weights.size());
  double worst = 0;
  for (std::size_t i = 0; i < plain.weights.size(); ++i) {
    worst = std::max(worst, std::fabs(static_cast<double>(plain.weights[i]) - parallel.weights[i]));
  }
  EXPECT_LT(worst, 1e-5) << "largest weight difference";
  for (std::size_t e = 0; e < plain.losses.size(); ++e) {
    EXPECT_NEAR(plain.losses[e], parallel.losses[e], 1e-5 * plain.losses[e]) << "epoch " << e + 1;
  }
  // Training moved the weights by far more than the rounding difference.
  const std::vector<float> start = Flat(MakeModel(false).get());
  double moved = 0;
  for (std::size_t i = 0; i < start.size(); ++i) {
    moved = std::max(moved, std::fabs(static_cast<double>(start[i]) - plain.weights[i]));
  }
  EXPECT_GT(moved, 1000 * worst);
  ExpectSameAsRankZero(parallel.weights);
}

TEST_F(DistTrain, DeterministicModeIsBitForBitTheOneProcessRun) {
  const Split data = SyntheticSplit(600);
  const int ranks = shade::dist::Communicator::World().size();
  for (bool cnn : {false, true}) {
    for (int shards : {ranks, 2 * ranks}) {
      // The CNN is slow on one core: 160 images (a full batch and one of 32), one shard count.
      if (cnn && shards != ranks) continue;
      const Split& d = cnn ? SyntheticSplit(160) : data;
      const TrainRun one = Train(d, cnn, std::make_unique<LocalExchange>(), shards);
      const TrainRun parallel = Train(d, cnn, Mpi(), shards);
      ASSERT_EQ(one.weights.size(), parallel.weights.size());
      EXPECT_EQ(std::memcmp(one.weights.data(), parallel.weights.data(),
                            sizeof(float) * one.weights.size()),
                0)
          << (cnn ? "cnn" : "mlp") << " shards " << shards;
      EXPECT_EQ(one.losses, parallel.losses) << (cnn ? "cnn" : "mlp") << " shards " << shards;
      ExpectSameAsRankZero(parallel.weights);
    }
  }
}

TEST_F(DistTrain, ShardsMustBeAMultipleOfTheRanks) {
  const int ranks = shade::dist::Communicator::World().size();
  std::unique_ptr<Model> model = MakeModel(false);
  EXPECT_THROW(DataParallel(model.get(), Mpi(), ranks + 1), shade::Error);
}

}  // namespace

int main(int argc, char** argv) {
  shade::dist::Environment env = shade::dist::Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
