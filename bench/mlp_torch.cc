// The Fashion-MNIST networks of examples/fashion_mnist written with LibTorch's C++ API, for
// the timing comparison in bench/mlp_compare.sh: same networks (--model mlp: 784-256-128-10,
// ReLU; --model cnn: conv 5x5 1->32, ReLU, max pool 2, conv 5x5 32->64, ReLU, max pool 2,
// linear 1024->10; softmax cross-entropy), same initialisation scheme (torch.nn.Linear's and
// Conv2d's default: weights and biases uniform in +-1/sqrt(fan_in)), same SGD with momentum
// (v = m v + g; w -= lr v), same batch, same data order (the shared shuffle of data.h), same
// per-epoch timing (the training loop only; the test pass is timed apart).
//
// usage: mlp_torch [--model mlp|cnn] [--epochs N] [--batch N] [--lr X] [--lr_decay X]
//                  [--momentum X] [--threads N] [--seed N] [--data_dir DIR] [--train_limit N]
//                  [--best] [--blas_threads N]
//   --threads N  torch::set_num_threads(N) (0: LibTorch's default)
//   --lr X, --lr_decay X: the learning rate of epoch e is lr * lr_decay^(e-1)
//   --best       flush denormals (at::globalContext().setFlushDenormal(true))
//   --blas_threads N  openblas_set_num_threads(N) (LibTorch's GEMM runs on OpenBLAS here)
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "data.h"
#include "idx.h"

extern "C" void openblas_set_num_threads(int num_threads);  // LibTorch's BLAS on Debian

namespace {

// The MLP of examples/fashion_mnist/mlp.h.
struct Mlp : torch::nn::Module {
  Mlp() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 128));
    fc3 = register_module("fc3", torch::nn::Linear(128, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    x = torch::relu(fc2->forward(x));
    return fc3->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
};

// The CNN of examples/fashion_mnist/cnn.h (stride 1, no padding; flattened channel-major
// like shade's 64x4x4 activations).
struct Cnn : torch::nn::Module {
  Cnn() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 5)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 5)));
    fc = register_module("fc", torch::nn::Linear(64 * 4 * 4, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = x.view({x.size(0), 1, 28, 28});
    x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
    return fc->forward(x.flatten(1));
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc{nullptr};
};

// Either network behind one forward (the training loop below is the same for both).
struct Net {
  std::shared_ptr<Mlp> mlp;
  std::shared_ptr<Cnn> cnn;
  torch::nn::Module& module() { return mlp ? static_cast<torch::nn::Module&>(*mlp) : *cnn; }
  torch::Tensor forward(torch::Tensor x) { return mlp ? mlp->forward(x) : cnn->forward(x); }
};

int ArgInt(const std::string& v) { return std::atoi(v.c_str()); }

}  // namespace

int main(int argc, char** argv) {
  int epochs = 10, batch = 128, threads = 0, seed = 0, train_limit = 0, blas_threads = -1;
  float lr = 0.1f, momentum = 0.9f, lr_decay = 0.8f;
  bool best = false;
  std::string model = "mlp";
  std::string data_dir = fashion_mnist::kDefaultDataDir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "mlp_torch: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--model") {
      model = next();
      continue;
    }
    if (a == "--epochs") epochs = ArgInt(next());
    else if (a == "--batch") batch = ArgInt(next());
    else if (a == "--lr") lr = std::strtof(next().c_str(), nullptr);
    else if (a == "--lr_decay") lr_decay = std::strtof(next().c_str(), nullptr);
    else if (a == "--momentum") momentum = std::strtof(next().c_str(), nullptr);
    else if (a == "--threads") threads = ArgInt(next());
    else if (a == "--blas_threads") blas_threads = ArgInt(next());
    else if (a == "--seed") seed = ArgInt(next());
    else if (a == "--train_limit") train_limit = ArgInt(next());
    else if (a == "--data_dir") data_dir = next();
    else if (a == "--best") best = true;
    else {
      std::fprintf(stderr, "mlp_torch: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (batch < 1 || epochs < 0 || (model != "mlp" && model != "cnn")) {
    std::fprintf(stderr, "mlp_torch: bad --batch, --epochs or --model\n");
    return 2;
  }
  if (threads > 0) torch::set_num_threads(threads);
  if (best) at::globalContext().setFlushDenormal(true);
  if (blas_threads > 0) openblas_set_num_threads(blas_threads);
  torch::manual_seed(static_cast<uint64_t>(seed));

  fashion_mnist::Split train, test;
  try {
    train = fashion_mnist::LoadSplit(data_dir, "train");
    test = fashion_mnist::LoadSplit(data_dir, "t10k");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlp_torch: %s\n", e.what());
    return 1;
  }
  const int64_t n = train_limit > 0 && train_limit < train.count ? train_limit : train.count;
  const int64_t d = fashion_mnist::kImageSize;

  Net net;
  if (model == "cnn") {
    net.cnn = std::make_shared<Cnn>();
  } else {
    net.mlp = std::make_shared<Mlp>();
  }
  torch::optim::SGD opt(net.module().parameters(), torch::optim::SGDOptions(lr).momentum(momentum));
  std::vector<int64_t> order(static_cast<std::size_t>(n));
  std::mt19937_64 rng(static_cast<uint64_t>(seed) + 1);
  torch::Tensor xb = torch::empty({batch, d});
  torch::Tensor yb = torch::empty({batch}, torch::kLong);
  std::printf("LibTorch %s, %s, threads %d%s\n", TORCH_VERSION, model.c_str(),
              torch::get_num_threads(), best ? " (best: denormals flushed)" : " (defaults)");
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    fashion_mnist::EpochOrder(n, &rng, &order);
    const double cpu0 = fashion_mnist::ProcessCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    double loss_sum = 0;
    int64_t seen = 0;
    for (int64_t start = 0; start < n; start += batch) {
      const int64_t b = std::min<int64_t>(batch, n - start);
      float* xp = xb.data_ptr<float>();
      int64_t* yp = yb.data_ptr<int64_t>();
      for (int64_t i = 0; i < b; ++i) {
        const int64_t src = order[static_cast<std::size_t>(start + i)];
        std::memcpy(xp + i * d, train.images.data() + src * d, sizeof(float) * d);
        yp[i] = train.labels[static_cast<std::size_t>(src)];
      }
      torch::Tensor x = b == batch ? xb : xb.narrow(0, 0, b);
      torch::Tensor y = b == batch ? yb : yb.narrow(0, 0, b);
      opt.zero_grad();
      torch::Tensor loss = torch::nn::functional::cross_entropy(net.forward(x), y);
      loss.backward();
      opt.step();
      loss_sum += loss.item<float>() * static_cast<double>(b);
      seen += b;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = fashion_mnist::ProcessCpuSeconds() - cpu0;
    int64_t correct = 0;
    {
      torch::NoGradGuard no_grad;
      // In slices, so the CNN's activations of the whole test set never exist at once.
      const int64_t slice = 1000;
      for (int64_t s0 = 0; s0 < test.count; s0 += slice) {
        const int64_t m = std::min<int64_t>(slice, test.count - s0);
        torch::Tensor tx = torch::from_blob(test.images.data() + s0 * d, {m, d});
        torch::Tensor pred = net.forward(tx).argmax(1);
        const int64_t* pp = pred.data_ptr<int64_t>();
        for (int64_t i = 0; i < m; ++i) correct += pp[i] == test.labels[s0 + i];
      }
    }
    std::printf("epoch %d/%d loss %.4f time %.3f s cpu %.3f s %.0f img/s test accuracy %.4f\n",
                epoch, epochs, loss_sum / static_cast<double>(seen), secs, cpu,
                static_cast<double>(seen) / secs,
                static_cast<double>(correct) / static_cast<double>(test.count));
    std::fflush(stdout);
    lr *= lr_decay;
    for (auto& group : opt.param_groups()) {
      static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
    }
  }
  return 0;
}
