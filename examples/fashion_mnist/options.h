/*!
 * \file options.h
 * \brief The example's options: a shade::Parameter struct (defaults, ranges, enum, docs) and
 *  the command-line parser that fills it from `--key=value` or `--key value` arguments.
 *
 * Header-only on purpose: the program and its test are each one translation unit, so the
 * registration below (which defines a function) appears once per executable.
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_OPTIONS_H_
#define SHADE_EXAMPLES_FASHION_MNIST_OPTIONS_H_

#include <string>
#include <utility>
#include <vector>

#include "idx.h"
#include "shade/param/parameter.h"

namespace fashion_mnist {

/*! \brief Network kinds. */
enum ModelKind { kMlp = 0, kCnn = 1 };

/*! \brief Every option of the example; `--help` prints __DOC__(). */
struct TrainParam : public shade::Parameter<TrainParam> {
  /*! \brief Passes over the training set. */
  int epochs;
  /*! \brief Examples per SGD step. */
  int batch;
  /*! \brief SGD learning rate. */
  float lr;
  /*! \brief Factor applied to the learning rate after every epoch. */
  float lr_decay;
  /*! \brief SGD momentum (PyTorch's form: v = momentum * v + g; w -= lr * v). */
  float momentum;
  /*! \brief kMlp or kCnn. */
  int model;
  /*! \brief Threads for shade's kernels and the BLAS; 0: all cores. */
  int threads;
  /*! \brief Seed of the initial weights and of the shuffling. */
  int seed;
  /*! \brief Directory of the four IDX files. */
  std::string data_dir;
  /*! \brief Where to write the trained weights ("" = nowhere). */
  std::string save;
  /*! \brief Weights to start from ("" = fresh initialisation). */
  std::string load;
  /*! \brief Train on only the first N images (0 = all). */
  int train_limit;
  /*! \brief Evaluate on only the first N test images (0 = all). */
  int test_limit;
  /*! \brief Data-parallel training over the MPI processes of mpirun (docs/distributed.md). */
  bool dist;
  /*! \brief 0: Allreduce of one slice per process; S: S slices summed in a fixed order. */
  int shards;
  /*! \brief Gradient bucket size of the Allreduce, KiB. */
  int bucket_kb;
  /*! \brief Train through autograd and shade::nn (false: the hand-written backward passes). */
  bool autograd;
  SHADE_DECLARE_PARAMETER(TrainParam) {
    SHADE_DECLARE_FIELD(epochs).set_default(10).set_range(0, 100000).describe(
        "Passes over the training set (0 with --load only evaluates).");
    SHADE_DECLARE_FIELD(batch).set_default(128).set_range(1, 60000).describe(
        "Images per SGD step.");
    SHADE_DECLARE_FIELD(lr).set_default(0.1f).set_range(0.0f, 10.0f).describe(
        "Learning rate of SGD.");
    SHADE_DECLARE_FIELD(lr_decay).set_default(0.8f).set_range(0.0f, 1.0f).describe(
        "The learning rate of epoch e is lr * lr_decay^(e-1).");
    SHADE_DECLARE_FIELD(momentum).set_default(0.9f).set_range(0.0f, 0.999f).describe(
        "Momentum of SGD (v = momentum * v + grad; w -= lr * v).");
    SHADE_DECLARE_FIELD(model).add_enum("mlp", kMlp).add_enum("cnn", kCnn).set_default(kMlp)
        .describe("Network: mlp (784-256-128-10, ReLU) or cnn (two 5x5 conv layers with max "
                  "pooling, then a dense layer).");
    SHADE_DECLARE_FIELD(threads).set_default(0).set_range(0, 1024).describe(
        "Threads for shade's kernels and the BLAS; 0 uses every core.");
    SHADE_DECLARE_FIELD(seed).set_default(0).set_lower_bound(0).describe(
        "Seed of the initial weights and of the order of the images (results are "
        "reproducible for a given seed and thread count).");
    SHADE_DECLARE_FIELD(data_dir).set_default(kDefaultDataDir).describe(
        "Directory holding train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
        "t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz.");
    SHADE_DECLARE_FIELD(save).set_default("").describe(
        "Write the trained weights to this file (shade's binary tensor format).");
    SHADE_DECLARE_FIELD(load).set_default("").describe(
        "Start from the weights in this file (written by --save with the same --model).");
    SHADE_DECLARE_FIELD(train_limit).set_default(0).set_lower_bound(0).describe(
        "Train on the first N training images only (0: all 60000), for quick runs.");
    SHADE_DECLARE_FIELD(test_limit).set_default(0).set_lower_bound(0).describe(
        "Evaluate on the first N test images only (0: all 10000).");
    SHADE_DECLARE_FIELD(dist).set_default(false).describe(
        "Data-parallel training over the processes of mpirun -np N (needs shade built with "
        "MPI): each global batch is split across the processes and the gradients are "
        "averaged; process 0 prints and saves.");
    SHADE_DECLARE_FIELD(shards).set_default(0).set_range(0, 4096).describe(
        "0: each process's slice is summed by Allreduce (rounding order is MPI's). S > 0: the "
        "deterministic mode: every batch is cut into S slices whose gradients are summed in "
        "slice order, giving the same bits for any number of processes dividing S (also "
        "without --dist).");
    SHADE_DECLARE_FIELD(bucket_kb)
        .set_default(1024)
        .set_range(1, 1 << 20)
        .describe("With --dist: gradients are reduced in buckets of this many KiB.");
    SHADE_DECLARE_FIELD(autograd).set_default(true).describe(
        "Differentiate through autograd and shade::nn (true), or run the hand-written backward "
        "passes (false; --dist always does).");
  }
};
SHADE_REGISTER_PARAMETER(TrainParam);

/*! \brief What the command line asked for. */
struct CommandLine {
  /*! \brief The options (meaningful when !help). */
  TrainParam param;
  /*! \brief --help / -h was given. */
  bool help = false;
};

/*!
 * \brief Parses `--key=value` and `--key value` (dashes inside a key may be written as
 *  underscores or dashes: --data-dir = --data_dir). Throws shade::ParamError with the
 *  Parameter's own text for unknown keys and bad values, and for stray arguments.
 */
inline CommandLine ParseCommandLine(const std::vector<std::string>& args) {
  CommandLine cl;
  std::vector<std::pair<std::string, std::string>> kv;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      cl.help = true;
      continue;
    }
    if (a == "--dist") {  // a flag: "mpirun -np 2 fashion_mnist --dist"
      kv.emplace_back("dist", "1");
      continue;
    }
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
      throw shade::ParamError("unexpected argument '" + a +
                              "': options are written --key=value or --key value (see --help)");
    }
    std::string key, value;
    const std::size_t eq = a.find('=');
    if (eq != std::string::npos) {
      key = a.substr(2, eq - 2);
      value = a.substr(eq + 1);
    } else {
      key = a.substr(2);
      if (i + 1 >= args.size()) {
        throw shade::ParamError("option --" + key + " needs a value: --" + key +
                                "=VALUE or --" + key + " VALUE (see --help)");
      }
      value = args[++i];
    }
    for (char& c : key) c = c == '-' ? '_' : c;
    if (key.empty()) throw shade::ParamError("empty option name in '" + a + "' (see --help)");
    kv.emplace_back(key, value);
  }
  if (!cl.help) cl.param.Init(kv, shade::parameter::kAllMatch);
  return cl;
}

/*! \brief The text --help prints. */
inline std::string HelpText() {
  return "Trains a network on Fashion-MNIST with shade and prints the test accuracy.\n\n"
         "usage: fashion_mnist [--key=value | --key value]...\n\noptions:\n" +
         TrainParam::__DOC__();
}

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_OPTIONS_H_
