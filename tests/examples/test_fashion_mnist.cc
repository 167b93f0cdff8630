// Tests for the Fashion-MNIST example (examples/fashion_mnist): the IDX loader's error paths on
// damaged temporary files, the option parser, weight files, and a short training run on a few
// hundred real images (skipped when Debian's dataset-fashion-mnist is not installed).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "../../examples/fashion_mnist/checkpoint.h"
#include "../../examples/fashion_mnist/cnn.h"
#include "../../examples/fashion_mnist/idx.h"
#include "../../examples/fashion_mnist/mlp.h"
#include "../../examples/fashion_mnist/options.h"
#include "../../examples/fashion_mnist/train.h"
#include "error_test_util.h"

namespace {

using namespace fashion_mnist;  // NOLINT(build/namespaces)

// A fresh temporary directory, removed with its files at the end of the test.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/shade_fmnist_XXXXXX";
    const char* d = ::mkdtemp(tmpl);
    if (d == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = d;
  }
  ~TempDir() {
    for (const std::string& f : files_) std::remove(f.c_str());
    ::rmdir(path_.c_str());
  }
  std::string File(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

void PutBE32(std::vector<std::uint8_t>* b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b->push_back(static_cast<std::uint8_t>(v >> s));
}

std::vector<std::uint8_t> ImageBytes(std::uint32_t magic, std::uint32_t count, std::uint32_t rows,
                                     std::uint32_t cols, std::size_t pixels) {
  std::vector<std::uint8_t> b;
  PutBE32(&b, magic);
  PutBE32(&b, count);
  PutBE32(&b, rows);
  PutBE32(&b, cols);
  for (std::size_t i = 0; i < pixels; ++i) b.push_back(static_cast<std::uint8_t>(i * 7));
  return b;
}

std::vector<std::uint8_t> LabelBytes(std::uint32_t magic, std::uint32_t count,
                                     std::vector<std::uint8_t> labels) {
  std::vector<std::uint8_t> b;
  PutBE32(&b, magic);
  PutBE32(&b, count);
  b.insert(b.end(), labels.begin(), labels.end());
  return b;
}

void WriteGz(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  if (!bytes.empty()) {
    ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())),
              static_cast<int>(bytes.size()));
  }
  ASSERT_EQ(gzclose(f), Z_OK);
}

void WriteRaw(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string ReadRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

using shade_test::Contains;
using shade_test::ErrorOf;

// A well-formed split of `n` 28x28 images in `dir` with file prefix `prefix`.
void WriteSplit(TempDir* dir, const std::string& prefix, std::uint32_t n) {
  WriteGz(dir->File(prefix + "-images-idx3-ubyte.gz"), ImageBytes(0x803, n, 28, 28, n * 784u));
  std::vector<std::uint8_t> labels;
  for (std::uint32_t i = 0; i < n; ++i) labels.push_back(static_cast<std::uint8_t>(i % 10));
  WriteGz(dir->File(prefix + "-labels-idx1-ubyte.gz"), LabelBytes(0x801, n, labels));
}

TEST(FashionMnistIdx, ReadsAWellFormedSplit) {
  TempDir dir;
  WriteSplit(&dir, "train", 3);
  const Split s = LoadSplit(dir.path(), "train");
  ASSERT_EQ(s.count, 3);
  ASSERT_EQ(s.images.size(), 3u * 784u);
  for (std::size_t i = 0; i < s.images.size(); ++i) {
    ASSERT_EQ(s.images[i], static_cast<float>(static_cast<std::uint8_t>(i * 7)) / 255.0f) << i;
  }
  EXPECT_EQ(s.labels, (std::vector<std::uint8_t>{0, 1, 2}));
}

TEST(FashionMnistIdx, MissingFileNamesThePathAndThePackage) {
  TempDir dir;
  const std::string msg = ErrorOf([&] { LoadSplit(dir.path(), "train"); });
  EXPECT_TRUE(Contains(msg, dir.path() + "/train-images-idx3-ubyte.gz")) << msg;
  EXPECT_TRUE(Contains(msg, "No such file")) << msg;
  EXPECT_TRUE(Contains(msg, "apt-get install dataset-fashion-mnist")) << msg;
  EXPECT_TRUE(Contains(msg, "--data_dir")) << msg;
}

TEST(FashionMnistIdx, BadMagic) {
  TempDir dir;
  const std::string p = dir.File("images.gz");
  WriteGz(p, ImageBytes(0x801, 1, 28, 28, 784));  // a label file's magic
  std::string msg = ErrorOf([&] { LoadIdxImages(p); });
  EXPECT_TRUE(Contains(msg, p)) << msg;
  EXPECT_TRUE(Contains(msg, "wrong magic number 0x00000801")) << msg;
  EXPECT_TRUE(Contains(msg, "0x00000803")) << msg;
  const std::string q = dir.File("labels.gz");
  WriteGz(q, LabelBytes(0x803, 1, {1}));
  msg = ErrorOf([&] { LoadIdxLabels(q); });
  EXPECT_TRUE(Contains(msg, "wrong magic number 0x00000803")) << msg;
  // A plain (not gzipped) file whose first bytes are text.
  const std::string r = dir.File("text.gz");
  WriteRaw(r, "hello, this is not an IDX file");
  msg = ErrorOf([&] { LoadIdxImages(r); });
  EXPECT_TRUE(Contains(msg, "wrong magic number 0x68656c6c")) << msg;
}

TEST(FashionMnistIdx, Truncated) {
  TempDir dir;
  // Header says 5 images, the file holds 3.
  const std::string p = dir.File("short.gz");
  WriteGz(p, ImageBytes(0x803, 5, 28, 28, 3 * 784));
  std::string msg = ErrorOf([&] { LoadIdxImages(p); });
  EXPECT_TRUE(Contains(msg, p)) << msg;
  EXPECT_TRUE(Contains(msg, "truncated while reading the pixels")) << msg;
  EXPECT_TRUE(Contains(msg, "3920 bytes announced by the header, found 2352")) << msg;
  // A header that claims ~2^32 images fails as truncated, without allocating terabytes.
  const std::string huge = dir.File("huge.gz");
  WriteGz(huge, ImageBytes(0x803, 0xFFFFFFFFu, 28, 28, 784));
  msg = ErrorOf([&] { LoadIdxImages(huge); });
  EXPECT_TRUE(Contains(msg, "truncated while reading the pixels")) << msg;
  // Cut inside the header.
  const std::string h = dir.File("header.gz");
  WriteGz(h, std::vector<std::uint8_t>{0, 0, 8, 3, 0, 0});
  msg = ErrorOf([&] { LoadIdxImages(h); });
  EXPECT_TRUE(Contains(msg, "truncated while reading the image count")) << msg;
  // An empty file.
  const std::string e = dir.File("empty.gz");
  WriteRaw(e, "");
  msg = ErrorOf([&] { LoadIdxLabels(e); });
  EXPECT_TRUE(Contains(msg, "truncated while reading the magic number")) << msg;
  // The gzip stream itself cut short (half of the compressed bytes).
  const std::string full = dir.File("full.gz");
  WriteGz(full, ImageBytes(0x803, 4, 28, 28, 4 * 784));
  const std::string bytes = ReadRaw(full);
  const std::string cut = dir.File("cut.gz");
  WriteRaw(cut, bytes.substr(0, bytes.size() / 2));
  msg = ErrorOf([&] { LoadIdxImages(cut); });
  EXPECT_TRUE(Contains(msg, cut)) << msg;
  EXPECT_TRUE(Contains(msg, "truncated") || Contains(msg, "damaged gzip")) << msg;
  // Intact deflate data but a wrong CRC in the gzip trailer.
  std::string bad = bytes;
  bad[bad.size() - 8] = static_cast<char>(bad[bad.size() - 8] ^ 0x5A);
  const std::string corrupt = dir.File("corrupt.gz");
  WriteRaw(corrupt, bad);
  msg = ErrorOf([&] { LoadIdxImages(corrupt); });
  EXPECT_TRUE(Contains(msg, corrupt + ": damaged gzip data")) << msg;
}

TEST(FashionMnistIdx, TrailingBytes) {
  TempDir dir;
  const std::string p = dir.File("long.gz");
  WriteGz(p, LabelBytes(0x801, 2, {1, 2, 3}));
  const std::string msg = ErrorOf([&] { LoadIdxLabels(p); });
  EXPECT_TRUE(Contains(msg, "trailing bytes")) << msg;
}

TEST(FashionMnistIdx, CountMismatchSizeAndLabels) {
  {
    TempDir dir;
    WriteGz(dir.File("train-images-idx3-ubyte.gz"), ImageBytes(0x803, 3, 28, 28, 3 * 784));
    WriteGz(dir.File("train-labels-idx1-ubyte.gz"), LabelBytes(0x801, 2, {1, 2}));
    const std::string msg = ErrorOf([&] { LoadSplit(dir.path(), "train"); });
    EXPECT_TRUE(Contains(msg, "counts disagree")) << msg;
    EXPECT_TRUE(Contains(msg, "holds 3 images")) << msg;
    EXPECT_TRUE(Contains(msg, "holds 2 labels")) << msg;
  }
  {
    TempDir dir;
    WriteGz(dir.File("train-images-idx3-ubyte.gz"), ImageBytes(0x803, 2, 27, 28, 2 * 27 * 28));
    WriteGz(dir.File("train-labels-idx1-ubyte.gz"), LabelBytes(0x801, 2, {1, 2}));
    const std::string msg = ErrorOf([&] { LoadSplit(dir.path(), "train"); });
    EXPECT_TRUE(Contains(msg, "images are 27x28")) << msg;
  }
  {
    TempDir dir;
    WriteGz(dir.File("t10k-images-idx3-ubyte.gz"), ImageBytes(0x803, 2, 28, 28, 2 * 784));
    WriteGz(dir.File("t10k-labels-idx1-ubyte.gz"), LabelBytes(0x801, 2, {1, 10}));
    const std::string msg = ErrorOf([&] { LoadSplit(dir.path(), "t10k"); });
    EXPECT_TRUE(Contains(msg, "label 10 of example 1")) << msg;
  }
  {
    TempDir dir;
    const std::string p = dir.File("zero.gz");
    WriteGz(p, ImageBytes(0x803, 2, 0, 28, 0));
    const std::string msg = ErrorOf([&] { LoadIdxImages(p); });
    EXPECT_TRUE(Contains(msg, "has no pixels")) << msg;
  }
}

// ---------------------------------------------------------------------------------------
// Options.

std::string ParamErrorOf(const std::vector<std::string>& args) {
  try {
    ParseCommandLine(args);
  } catch (const shade::ParamError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ParamError";
  return "";
}

TEST(FashionMnistOptions, DefaultsAndBothForms) {
  const CommandLine d = ParseCommandLine({});
  EXPECT_FALSE(d.help);
  EXPECT_EQ(d.param.epochs, 10);
  EXPECT_EQ(d.param.batch, 128);
  EXPECT_EQ(d.param.model, kMlp);
  EXPECT_EQ(d.param.data_dir, "/usr/share/datasets/fashion-mnist");
  EXPECT_EQ(d.param.save, "");
  const CommandLine c =
      ParseCommandLine({"--epochs=3", "--batch", "64", "--model", "cnn", "--data-dir=/x y", "--lr",
                        "0.5", "--seed=7", "--train_limit", "300", "--threads=2"});
  EXPECT_EQ(c.param.epochs, 3);
  EXPECT_EQ(c.param.batch, 64);
  EXPECT_EQ(c.param.model, kCnn);
  EXPECT_EQ(c.param.data_dir, "/x y");
  EXPECT_EQ(c.param.lr, 0.5f);
  EXPECT_EQ(c.param.seed, 7);
  EXPECT_EQ(c.param.train_limit, 300);
  EXPECT_EQ(c.param.threads, 2);
  EXPECT_TRUE(ParseCommandLine({"--epochs=3", "--help"}).help);
  EXPECT_TRUE(ParseCommandLine({"-h", "--bogus=1"}).help);
  const std::string help = HelpText();
  for (const char* key : {"epochs", "batch", "lr", "momentum", "model", "threads", "seed",
                          "data_dir", "save", "load", "train_limit"}) {
    EXPECT_TRUE(Contains(help, std::string(key) + " : ")) << key << "\n" << help;
  }
}

TEST(FashionMnistOptions, Errors) {
  std::string msg = ParamErrorOf({"--bogus=1"});
  EXPECT_TRUE(Contains(msg, "bogus")) << msg;
  msg = ParamErrorOf({"--epochs=abc"});
  EXPECT_TRUE(Contains(msg, "epochs")) << msg;
  EXPECT_TRUE(Contains(msg, "abc")) << msg;
  msg = ParamErrorOf({"--batch=0"});
  EXPECT_TRUE(Contains(msg, "batch")) << msg;
  msg = ParamErrorOf({"--model=rnn"});
  EXPECT_TRUE(Contains(msg, "rnn")) << msg;
  EXPECT_TRUE(Contains(msg, "mlp")) << msg;
  msg = ParamErrorOf({"--momentum=nan"});
  EXPECT_TRUE(Contains(msg, "momentum")) << msg;
  msg = ParamErrorOf({"epochs=3"});
  EXPECT_TRUE(Contains(msg, "unexpected argument 'epochs=3'")) << msg;
  msg = ParamErrorOf({"--lr"});
  EXPECT_TRUE(Contains(msg, "option --lr needs a value")) << msg;
  msg = ParamErrorOf({"--=3"});
  EXPECT_TRUE(Contains(msg, "empty option name")) << msg;
}

// ---------------------------------------------------------------------------------------
// Weight files.

TEST(FashionMnistCheckpoint, RoundTripAndErrors) {
  TempDir dir;
  Mlp a(16), b(16);
  Rng ra(1), rb(2);
  a.Init(&ra);
  b.Init(&rb);
  const std::string p = dir.File("w.bin");
  CheckWritable(p);
  SaveModel(p, a);
  LoadModel(p, &b);
  std::vector<float> img(4 * 784);
  for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<float>(i % 13) / 13.0f;
  MatrixContainer la(shade::Shape2(4, 10)), lb(shade::Shape2(4, 10));
  Matrix x(img.data(), shade::Shape2(4, 784));
  a.Forward(x, &la);
  b.Forward(x, &lb);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 10; ++j) ASSERT_EQ(la[i][j], lb[i][j]);
  }
  // Damaged files: truncated, wrong tag, trailing bytes.
  const std::string bytes = ReadRaw(p);
  const std::string t = dir.File("trunc.bin");
  WriteRaw(t, bytes.substr(0, bytes.size() - 5));
  std::string msg = ErrorOf([&] { LoadModel(t, &b); });
  EXPECT_TRUE(Contains(msg, t)) << msg;
  EXPECT_TRUE(Contains(msg, "fc3")) << msg;
  const std::string g = dir.File("garbage.bin");
  WriteRaw(g, "not a weight file at all");
  msg = ErrorOf([&] { LoadModel(g, &b); });
  EXPECT_TRUE(Contains(msg, "is not a weight file")) << msg;
  const std::string l = dir.File("long.bin");
  WriteRaw(l, bytes + "x");
  msg = ErrorOf([&] { LoadModel(l, &b); });
  EXPECT_TRUE(Contains(msg, "bytes after the last layer")) << msg;
  msg = ErrorOf([&] { LoadModel(dir.path() + "/absent.bin", &b); });
  EXPECT_TRUE(Contains(msg, "absent.bin")) << msg;
  // Unwritable destinations are refused before training.
  msg = ErrorOf([] { CheckWritable("/nonexistent-dir/w.bin"); });
  EXPECT_TRUE(Contains(msg, "cannot create /nonexistent-dir/w.bin")) << msg;
  if (::geteuid() != 0) {  // root may write anywhere
    msg = ErrorOf([] { CheckWritable("/proc/version"); });
    EXPECT_TRUE(Contains(msg, "cannot write /proc/version")) << msg;
  }
  msg = ErrorOf([&] { CheckWritable(dir.path()); });  // a directory, not a file
  EXPECT_TRUE(Contains(msg, dir.path())) << msg;
}

// ---------------------------------------------------------------------------------------
// Training on real images.

// The CNN's Conv layer (GEMMs over groups of images, fused bias and ReLU, per-group input
// gradient) against naive loops in double: the forward output with and without ReLU, the
// weight and bias gradients folded into zero momentum, and the input gradient, at 1 and 2
// threads. 29 images of 5x4 output planes make groups of 13, 13 and 3 (a short last group).
// A second geometry, 3 images of 16x16 output planes, takes the one-image groups written in
// place.
struct ConvGeometry {
  shade::index_t b, h, w;
};

class FashionMnistConvGeometry : public ::testing::TestWithParam<ConvGeometry> {};

TEST_P(FashionMnistConvGeometry, MatchesNaiveLoops) {
  const shade::index_t b = GetParam().b, cin = 2, cout = 4, k = 3, h = GetParam().h,
                       w = GetParam().w, oh = h - k + 1, ow = w - k + 1;
  const int saved_threads = shade::GetNumThreads();
  for (int threads = 1; threads <= 2; ++threads) {
    for (bool relu : {false, true}) {
      shade::SetNumThreads(threads);
      Conv conv(cin, cout, k, h, w, b + 1);  // buffers larger than the batch
      Rng rnd(7);
      conv.Init(&rnd);
      // unpadded (contiguous) activations, as the network's own
      Tensor4Container in(shade::Shape4(b, cin, h, w), false);
      Tensor4Container out(shade::Shape4(b, cout, oh, ow), false);
      Tensor4Container dout(shade::Shape4(b, cout, oh, ow), false);
      Tensor4Container din(shade::Shape4(b, cin, h, w), false);
      rnd.SampleUniform(&in, -1.0f, 1.0f);
      rnd.SampleUniform(&dout, -1.0f, 1.0f);
      Tensor4 out_view = out, din_view = din;
      conv.Forward(in, &out_view, relu);
      const Matrix& wt = conv.params().w();
      const VectorContainer& bias = conv.params().b();
      for (shade::index_t n = 0; n < b; ++n)
        for (shade::index_t co = 0; co < cout; ++co)
          for (shade::index_t y = 0; y < oh; ++y)
            for (shade::index_t x = 0; x < ow; ++x) {
              double want = bias[co];
              for (shade::index_t ci = 0; ci < cin; ++ci)
                for (shade::index_t ky = 0; ky < k; ++ky)
                  for (shade::index_t kx = 0; kx < k; ++kx)
                    want += double(wt[co][(ci * k + ky) * k + kx]) * in[n][ci][y + ky][x + kx];
              if (relu && want < 0) want = 0;
              ASSERT_NEAR(out[n][co][y][x], want, 1e-5)
                  << "out " << n << "," << co << "," << y << "," << x << " relu " << relu;
            }
      conv.Backward(dout, &din_view, 0.0f);  // momentum 0: the velocity is the gradient
      for (shade::index_t co = 0; co < cout; ++co) {
        double gb = 0;
        for (shade::index_t n = 0; n < b; ++n)
          for (shade::index_t y = 0; y < oh; ++y)
            for (shade::index_t x = 0; x < ow; ++x) gb += dout[n][co][y][x];
        EXPECT_NEAR(conv.params().vb()[co], gb, 1e-4) << "bias gradient " << co;
        for (shade::index_t ci = 0; ci < cin; ++ci)
          for (shade::index_t ky = 0; ky < k; ++ky)
            for (shade::index_t kx = 0; kx < k; ++kx) {
              double gw = 0;
              for (shade::index_t n = 0; n < b; ++n)
                for (shade::index_t y = 0; y < oh; ++y)
                  for (shade::index_t x = 0; x < ow; ++x)
                    gw += double(dout[n][co][y][x]) * in[n][ci][y + ky][x + kx];
              EXPECT_NEAR(conv.params().vw()[co][(ci * k + ky) * k + kx], gw, 1e-4)
                  << "weight gradient " << co << "," << ci << "," << ky << "," << kx;
            }
      }
      for (shade::index_t n = 0; n < b; ++n)
        for (shade::index_t ci = 0; ci < cin; ++ci)
          for (shade::index_t y = 0; y < h; ++y)
            for (shade::index_t x = 0; x < w; ++x) {
              double want = 0;
              for (shade::index_t co = 0; co < cout; ++co)
                for (shade::index_t ky = 0; ky < k; ++ky)
                  for (shade::index_t kx = 0; kx < k; ++kx) {
                    const shade::index_t oy = y - ky, ox = x - kx;
                    if (oy < 0 || ox < 0 || oy >= oh || ox >= ow) continue;
                    want += double(wt[co][(ci * k + ky) * k + kx]) * dout[n][co][oy][ox];
                  }
              ASSERT_NEAR(din[n][ci][y][x], want, 1e-5)
                  << "input gradient " << n << "," << ci << "," << y << "," << x;
            }
    }
  }
  shade::SetNumThreads(saved_threads);
}

INSTANTIATE_TEST_SUITE_P(Groups, FashionMnistConvGeometry,
                         ::testing::Values(ConvGeometry{29, 7, 6}, ConvGeometry{3, 18, 18}));

// Backward re-reads the input of the last Forward: without one, or with an output gradient or
// input gradient of another batch, it throws instead of reading out of bounds; so does a
// Forward of a batch larger than the layer's buffers.
TEST(FashionMnistConv, BackwardChecksItsShapes) {
  Conv conv(2, 4, 3, 7, 6, 4);
  Rng rnd(3);
  conv.Init(&rnd);
  // unpadded (contiguous), as the network's own activations
  Tensor4Container in(shade::Shape4(3, 2, 7, 6), false), out(shade::Shape4(3, 4, 5, 4), false);
  Tensor4Container dout(shade::Shape4(3, 4, 5, 4), false), small(shade::Shape4(2, 4, 5, 4), false);
  Tensor4Container din(shade::Shape4(3, 2, 7, 6), false),
      din_small(shade::Shape4(2, 2, 7, 6), false);
  in = 0.5f;
  dout = 1.0f;
  small = 1.0f;
  Tensor4 out_view = out, din_view = din, din_small_view = din_small;
  EXPECT_THROW(conv.Backward(dout, nullptr, 0.0f), shade::Error);  // no Forward yet
  conv.Forward(in, &out_view, true);
  EXPECT_THROW(conv.Backward(small, nullptr, 0.0f), shade::Error);
  EXPECT_THROW(conv.Backward(dout, &din_small_view, 0.0f), shade::Error);
  EXPECT_NO_THROW(conv.Backward(dout, &din_view, 0.0f));
  // a batch larger than the buffers (4 images)
  Tensor4Container big_in(shade::Shape4(5, 2, 7, 6), false),
      big_out(shade::Shape4(5, 4, 5, 4), false);
  big_in = 0.5f;
  Tensor4 big_out_view = big_out;
  EXPECT_THROW(conv.Forward(big_in, &big_out_view, true), shade::Error);
}

TEST(FashionMnistTrain, LossGoesDownOnRealImages) {
  const std::string dir = kDefaultDataDir;
  struct stat st;
  if (::stat((dir + "/t10k-images-idx3-ubyte.gz").c_str(), &st) != 0) {
    GTEST_SKIP() << "Fashion-MNIST is not installed (apt-get install dataset-fashion-mnist)";
  }
  // The 10000-image test split is the quickest to read; its first 320 images are the data.
  const Split data = LoadSplit(dir, "t10k");
  ASSERT_EQ(data.count, 10000);
  // One thread: the run is tiny (thread hand-offs would cost more than they save on a busy
  // machine) and the exact-reproducibility check below is per thread count.
  const int threads = shade::GetNumThreads();
  shade::SetNumThreads(1);
  auto run = [&](std::vector<double>* losses) {
    Mlp mlp(32);
    Rng rnd(3);
    mlp.Init(&rnd);
    Trainer trainer(&mlp, 3);
    for (int epoch = 1; epoch <= 3; ++epoch) {
      losses->push_back(trainer.TrainEpoch(data, 320, 0.05f, 0.9f, epoch, 3, nullptr).loss);
    }
    return trainer.Evaluate(data, 320);
  };
  std::vector<double> first, second;
  const double acc = run(&first);
  EXPECT_GT(first[0], 1.0);  // about log(10) at the start
  EXPECT_LT(first[1], first[0]);
  EXPECT_LT(first[2], 0.6 * first[0]) << first[0] << " -> " << first[2];
  EXPECT_GT(acc, 0.4);  // on the images it was trained on (chance: 0.1)
  run(&second);
  shade::SetNumThreads(threads);
  EXPECT_EQ(first, second);  // the same seed reproduces the run exactly
}

// The hand-written backward passes as the oracle of autograd's gradients: the same batch, the
// same weights, every layer's W and b (float32, so the two summation orders agree to about
// 1e-6 of the gradient's scale).
TEST(FashionMnistAutograd, GradientsEqualTheHandWrittenBackward) {
  for (int which = 0; which < 2; ++which) {
    const shade::index_t b = 8;
    std::unique_ptr<Model> model;
    if (which == 0) {
      model = std::make_unique<Mlp>(b);
    } else {
      model = std::make_unique<Cnn>(b);
    }
    Rng rnd(5);
    model->Init(&rnd);
    MatrixContainer x(shade::Shape2(b, kImageSize));
    rnd.SampleUniform(&x, 0.0f, 1.0f);
    VectorContainer labels(shade::Shape1(b));
    for (shade::index_t i = 0; i < b; ++i) labels[i] = static_cast<float>((3 * i + which) % 10);
    float auto_loss = 0;
    const std::vector<shade::NDArray> grads = model->AutogradGradients(x, labels, &auto_loss);
    std::vector<float> hand(static_cast<std::size_t>(model->NumParameters()));
    model->KeepGradientsIn(hand.data(), {});
    const float hand_loss = model->ComputeGradient(x, labels, b);
    EXPECT_NEAR(auto_loss, hand_loss, 1e-5f * std::fabs(hand_loss)) << model->name();
    std::size_t at = 0;
    for (std::size_t k = 0; k < grads.size(); ++k) {
      const shade::NDArray g = grads[k].contiguous();
      ASSERT_TRUE(g.defined()) << model->name() << " parameter " << k;
      double scale = 0;
      for (shade::index_t i = 0; i < g.numel(); ++i) {
        scale = std::max(scale, std::fabs(static_cast<double>(hand[at + i])));
      }
      for (shade::index_t i = 0; i < g.numel(); ++i) {
        ASSERT_NEAR(g.data<float>()[i], hand[at + i], 2e-5 * scale + 1e-7)
            << model->name() << " parameter " << k << " element " << i;
      }
      at += static_cast<std::size_t>(g.numel());
    }
    EXPECT_EQ(at, hand.size());
  }
}

TEST(FashionMnistAutograd, BothPathsTrainAlike) {
  // Three SGD steps each way from the same weights give the same weights (to rounding).
  for (int which = 0; which < 2; ++which) {
    std::unique_ptr<Model> a, h;
    if (which == 0) {
      a = std::make_unique<Mlp>(8);
      h = std::make_unique<Mlp>(8);
    } else {
      a = std::make_unique<Cnn>(8);
      h = std::make_unique<Cnn>(8);
    }
    Rng ra(7), rh(7);
    a->Init(&ra);
    h->Init(&rh);
    h->set_autograd(false);
    EXPECT_TRUE(a->autograd());
    MatrixContainer x(shade::Shape2(8, kImageSize));
    ra.SampleUniform(&x, 0.0f, 1.0f);
    VectorContainer labels(shade::Shape1(8));
    for (shade::index_t i = 0; i < 8; ++i) labels[i] = static_cast<float>(i);
    for (int step = 0; step < 3; ++step) {
      EXPECT_NEAR(a->TrainStep(x, labels, 0.1f, 0.9f), h->TrainStep(x, labels, 0.1f, 0.9f), 1e-4)
          << a->name();
    }
    const std::vector<Matrix> wa = a->Weights(), wh = h->Weights();
    for (std::size_t k = 0; k < wa.size(); ++k) {
      for (shade::index_t i = 0; i < wa[k].size(0); ++i) {
        for (shade::index_t j = 0; j < wa[k].size(1); ++j) {
          ASSERT_NEAR(wa[k][i][j], wh[k][i][j], 1e-5) << a->name() << " " << k;
        }
      }
    }
  }
}

}  // namespace
