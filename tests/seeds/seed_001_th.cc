// Seed note 001 (Torch TH tensors): every example of the note, on NDArray, then the note's
// complete TH programs through shade/compat/th.h in place of TH/TH.h (stdout captured and
// compared with the output the note states).
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "shade/compat/th.h"
#include "shade/ndarray/apply.h"
#include "shade/ndarray/ndarray.h"

namespace {

using shade::index_t;
using shade::NDArray;

// THTensor_(newWithSize*) for real = double.
NDArray NewWithSize(shade::IndexSpan sizes) {
  return NDArray::Empty<double>(sizes);
}

std::string PrintMatrix(const NDArray& t) {
  // The note's printMatrix: get2d over both dims, rank checked.
  if (t.ndim() != 2) throw std::runtime_error("dimension error");
  std::ostringstream os;
  for (index_t i = 0; i != t.size(0); ++i) {
    for (index_t j = 0; j != t.size(1); ++j) os << t.get({i, j}) << ' ';
    os << '\n';
  }
  return os.str();
}

TEST(SeedTH, Set1dGet1dPrintsZeroToNine) {
  NDArray tensor1 = NewWithSize({10});
  for (index_t i = 0; i != 10; ++i) tensor1.set({i}, static_cast<double>(i));
  std::ostringstream os;
  for (index_t i = 0; i != 10; ++i) os << tensor1.get({i}) << ' ';
  EXPECT_EQ(os.str(), "0 1 2 3 4 5 6 7 8 9 ");
}

TEST(SeedTH, ApplyFillsZeroToNine) {
  // TH_TENSOR_APPLY(real, tensor1, *tensor1_data = (real)i; ++i;) - order matters, so ordered.
  NDArray tensor1 = NewWithSize({10});
  int i = 0;
  shade::ApplyOptions ordered;
  ordered.ordered = true;
  shade::ApplyElementwise<double>(
      [&i](double& x) {
        x = static_cast<double>(i);
        ++i;
      },
      ordered, tensor1);
  std::ostringstream os;
  for (index_t k = 0; k != 10; ++k) os << tensor1.get({k}) << ' ';
  EXPECT_EQ(os.str(), "0 1 2 3 4 5 6 7 8 9 ");
  EXPECT_EQ(i, 10);
}

TEST(SeedTH, FillThroughTheStoragePointer) {
  NDArray tensor1 = NewWithSize({10});
  const shade::Storage& s = tensor1.storage();
  double* data = static_cast<double*>(s.data());
  const index_t size = static_cast<index_t>(s.capacity() / s.itemsize());
  EXPECT_EQ(size, 10);
  for (index_t i = 0; i != size; ++i) data[i] = static_cast<double>(i);
  for (index_t i = 0; i != 10; ++i) EXPECT_EQ(tensor1.at<double>(i), static_cast<double>(i));
}

TEST(SeedTH, StridesOf8x4x6x7AndSet4dOffset) {
  NDArray ts = NewWithSize({8, 4, 6, 7});
  const index_t stride1 = ts.stride(0), stride2 = ts.stride(1), stride3 = ts.stride(2),
                stride4 = ts.stride(3);
  std::ostringstream os;
  os << "strides: " << stride1 << ' ' << stride2 << ' ' << stride3 << ' ' << stride4;
  EXPECT_EQ(os.str(), "strides: 168 42 7 1");
  double* data = ts.data<double>();
  const int a = 2, b = 3, c = 5, d = 2;
  ts.set({a, b, c, d}, 12);
  EXPECT_EQ(data[a * stride1 + b * stride2 + c * stride3 + d * stride4], 12);
  // The last stride of a fresh tensor is 1; stride[d] = size[d+1] * stride[d+1].
  for (int k = 0; k < 3; ++k) EXPECT_EQ(ts.stride(k), ts.size(k + 1) * ts.stride(k + 1));
}

TEST(SeedTH, DataIsStorageDataPlusOffset) {
  NDArray ts = NewWithSize({8, 4, 6, 7});
  NDArray sub = ts.narrow(0, 3, 2).select(1, 2);
  EXPECT_EQ(sub.storage_offset(), 3 * 168 + 2 * 42);
  EXPECT_EQ(sub.data<double>(), static_cast<double*>(ts.storage().data()) + sub.storage_offset());
  NDArray lazy({3});  // no storage data yet: THTensor_(data) returns NULL
  EXPECT_EQ(lazy.data_ptr(), nullptr);
}

TEST(SeedTH, TransposeSharesStorageWithStrides1And4) {
  NDArray tensor1 = NewWithSize({3, 4});
  const shade::Storage& s = tensor1.storage();
  std::ostringstream before;
  before << "strides: " << tensor1.stride(0) << ' ' << tensor1.stride(1);
  EXPECT_EQ(before.str(), "strides: 4 1");
  double* data = static_cast<double*>(s.data());
  for (index_t i = 0; i != 12; ++i) data[i] = static_cast<double>(i);
  const std::string content = "0 1 2 3 \n4 5 6 7 \n8 9 10 11 \n";
  EXPECT_EQ(PrintMatrix(tensor1), content);
  NDArray tensor2 = tensor1.transpose(0, 1);
  std::ostringstream after;
  after << "strides: " << tensor2.stride(0) << ' ' << tensor2.stride(1);
  EXPECT_EQ(after.str(), "strides: 1 4");
  EXPECT_TRUE(tensor2.storage().is_alias_of(tensor1.storage()));
  EXPECT_EQ(tensor1.storage().use_count(), 2);
  EXPECT_EQ(PrintMatrix(tensor1), content);  // the original is unchanged
  EXPECT_EQ(PrintMatrix(tensor2), "0 4 8 \n1 5 9 \n2 6 10 \n3 7 11 \n");
  EXPECT_FALSE(tensor2.is_contiguous());
}

TEST(SeedTH, CounterWalkOfTheTransposedMatrix) {
  // The counter loop of the note visits the transposed matrix in its logical order.
  NDArray tensor1 = NewWithSize({3, 4});
  for (index_t i = 0; i != 12; ++i) tensor1.data<double>()[i] = static_cast<double>(i);
  NDArray tensor2 = tensor1.transpose(0, 1);
  std::vector<double> seen;
  shade::ApplyOptions ordered;
  ordered.ordered = true;
  shade::ApplyElementwise<double>([&seen](double& x) { seen.push_back(x); }, ordered, tensor2);
  EXPECT_EQ(seen, (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
}

TEST(SeedTH, LargestContiguousSectionAsTHComputesIt) {
  index_t dim, size, stride;
  // Fresh 8x4x6x7: the whole tensor is one section, no counters left.
  shade::THContiguousSection({8, 4, 6, 7}, {168, 42, 7, 1}, &dim, &size, &stride);
  EXPECT_EQ(dim, -1);
  EXPECT_EQ(size, 1344);
  EXPECT_EQ(stride, 1);
  // Transposed 3x4 (sizes 4x3, strides 1,4): first stride 4, section of one element.
  shade::THContiguousSection({4, 3}, {1, 4}, &dim, &size, &stride);
  EXPECT_EQ(stride, 4);
  EXPECT_EQ(size, 1);
  EXPECT_EQ(dim, 1);
  // Trailing size-1 dims are skipped; a narrowed row keeps its inner section.
  shade::THContiguousSection({3, 5, 1}, {10, 1, 1}, &dim, &size, &stride);
  EXPECT_EQ(stride, 1);
  EXPECT_EQ(size, 5);
  EXPECT_EQ(dim, 0);
}

TEST(SeedTH, ApplyVisitsEveryElementOfA4dTensorOnce) {
  // The apply engine over the permuted 8x4x6x7 tensor: each storage slot written exactly once.
  NDArray ts = NDArray::Empty<double>({8, 4, 6, 7});
  ts.Fill(0);
  NDArray perm = ts.permute({2, 0, 3, 1});
  shade::ApplyElementwise<double>([](double& x) { x += 1; }, shade::ApplyOptions(), perm);
  const double* d = ts.data<double>();
  for (index_t i = 0; i < ts.numel(); ++i) ASSERT_EQ(d[i], 1.0) << i;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The note's TH programs, as written there (main renamed, assert checked with EXPECT).
#define Real Double
#define real double

namespace th_programs {

// Runs `program` with stdout captured; returns what it printed.
template <typename F>
std::string CaptureOutput(F program) {
  testing::internal::CaptureStdout();
  program();
  std::fflush(stdout);
  return testing::internal::GetCapturedStdout();
}

int SetGet() {
  THTensor* tensor1 = THTensor_(newWithSize1d)(10);
  for (int64_t i = 0; i != 10; ++i) {
    THTensor_(set1d)(tensor1, i, (real)i);
  }
  for (int i = 0; i != 10; ++i) {
    printf("%g ", THTensor_(get1d)(tensor1, i));
  }
  printf("\n");
  THTensor_(free)(tensor1);
  return 0;
}

int Apply() {
  THTensor* tensor1 = THTensor_(newWithSize1d)(10);
  int i = 0;
  TH_TENSOR_APPLY(real, tensor1, *tensor1_data = (real)i; ++i;);
  for (int i = 0; i != 10; ++i) {
    printf("%g ", THTensor_(get1d)(tensor1, i));
  }
  printf("\n");
  THTensor_(free)(tensor1);
  return 0;
}

int StorageLoop() {
  THTensor* tensor1 = THTensor_(newWithSize1d)(10);
  THStorage* s = THTensor_(storage)(tensor1);
  double* data = THStorage_(data)(s);
  int64_t size = THStorage_(size)(s);
  for (int64_t i = 0; i != size; ++i) {
    data[i] = (double)i;
  }
  // (not in the note: show what the loop wrote)
  for (int i = 0; i != 10; ++i) printf("%g ", THTensor_(get1d)(tensor1, i));
  printf("size %ld\n", (long)size);  // NOLINT(runtime/int)
  THTensor_(free)(tensor1);
  return 0;
}

int Strides4d() {
  THTensor* ts = THTensor_(newWithSize4d)(8, 4, 6, 7);
  long stride1 = THTensor_(stride)(ts, 0);  // NOLINT(runtime/int)
  long stride2 = THTensor_(stride)(ts, 1);  // NOLINT(runtime/int)
  long stride3 = THTensor_(stride)(ts, 2);  // NOLINT(runtime/int)
  long stride4 = THTensor_(stride)(ts, 3);  // NOLINT(runtime/int)
  printf("strides: %ld %ld %ld %ld\n", stride1, stride2, stride3, stride4);
  double* data = THTensor_(data)(ts);
  int a = 2;
  int b = 3;
  int c = 5;
  int d = 2;
  THTensor_(set4d)(ts, a, b, c, d, 12);
  EXPECT_TRUE(data[a * stride1 + b * stride2 + c * stride3 + d * stride4] == 12);
  THTensor_(free)(ts);
  return 0;
}

void printMatrix(THTensor* tensor) {
  int nDim = THTensor_(nDimension)(tensor);
  if (nDim != 2) throw std::runtime_error("dimension error");
  long size0 = THTensor_(size)(tensor, 0);  // NOLINT(runtime/int)
  long size1 = THTensor_(size)(tensor, 1);  // NOLINT(runtime/int)
  for (int i = 0; i != size0; ++i) {
    for (int j = 0; j != size1; ++j) {
      printf("%g ", THTensor_(get2d)(tensor, i, j));
    }
    printf("\n");
  }
}

int Transpose() {
  THTensor* tensor1 = THTensor_(newWithSize2d)(3, 4);
  THStorage* s = THTensor_(storage)(tensor1);
  long stride1 = THTensor_(stride)(tensor1, 0);  // NOLINT(runtime/int)
  long stride2 = THTensor_(stride)(tensor1, 1);  // NOLINT(runtime/int)
  printf("Before transpose:\n");
  printf("strides: %ld %ld\n", stride1, stride2);
  double* data = THStorage_(data)(s);
  int64_t size = THStorage_(size)(s);
  for (int64_t i = 0; i != size; ++i) {
    data[i] = (double)i;
  }
  printf("content:\n");
  printMatrix(tensor1);
  printf("After transpose:\n");
  THTensor* tensor2 = THTensor_(newTranspose)(tensor1, 0, 1);
  stride1 = THTensor_(stride)(tensor2, 0);
  stride2 = THTensor_(stride)(tensor2, 1);
  printf("strides: %ld %ld\n", stride1, stride2);
  printf("content:\n");
  printMatrix(tensor1);
  THTensor_(free)(tensor2);
  THTensor_(free)(tensor1);
  return 0;
}

// The note's hand-written loop (How to loop an n-dim array) over the tensor's fields, here
// through the accessors; it visits the elements in row-major order.
std::vector<double> NoteLoop(THTensor* tensor1) {
  std::vector<double> seen;
  real* tensor1_data = NULL;
  std::vector<long> tensor1_counter;                              // NOLINT(runtime/int)
  long tensor1_stride = 0, tensor1_size = 0, tensor1_dim = 0, i;  // NOLINT(runtime/int)
  int hasFinished = 0;
  const int nDimension = THTensor_(nDimension)(tensor1);
  if (nDimension == 0) {
    hasFinished = 1;
  } else {
    tensor1_data = THTensor_(data)(tensor1);
    for (tensor1_dim = nDimension - 1; tensor1_dim >= 0; tensor1_dim--) {
      if (THTensor_(size)(tensor1, tensor1_dim) != 1) break;
    }
    tensor1_stride = (tensor1_dim == -1 ? 0 : THTensor_(stride)(tensor1, tensor1_dim));
    tensor1_size = 1;
    for (tensor1_dim = nDimension - 1; tensor1_dim >= 0; tensor1_dim--) {
      if (THTensor_(size)(tensor1, tensor1_dim) != 1) {
        if (THTensor_(stride)(tensor1, tensor1_dim) == tensor1_size)
          tensor1_size *= THTensor_(size)(tensor1, tensor1_dim);
        else
          break;
      }
    }
    tensor1_counter.assign(tensor1_dim + 1, 0);
  }
  while (!hasFinished) {
    for (i = 0; i < tensor1_size; i++, tensor1_data += tensor1_stride) {
      seen.push_back(*tensor1_data);
    }
    if (tensor1_dim == -1) break;
    tensor1_data -= i * tensor1_stride;
    for (i = tensor1_dim; i >= 0; i--) {
      tensor1_counter[i]++;
      tensor1_data += THTensor_(stride)(tensor1, i);
      if (tensor1_counter[i] == THTensor_(size)(tensor1, i)) {
        if (i == 0) {
          hasFinished = 1;
          break;
        } else {
          tensor1_data -= tensor1_counter[i] * THTensor_(stride)(tensor1, i);
          tensor1_counter[i] = 0;
        }
      } else {
        break;
      }
    }
  }
  return seen;
}

}  // namespace th_programs

namespace {

TEST(SeedTHProgram, SetGetPrintsZeroToNine) {
  EXPECT_EQ(th_programs::CaptureOutput(th_programs::SetGet), "0 1 2 3 4 5 6 7 8 9 \n");
}

TEST(SeedTHProgram, ApplyPrintsZeroToNine) {
  EXPECT_EQ(th_programs::CaptureOutput(th_programs::Apply), "0 1 2 3 4 5 6 7 8 9 \n");
}

TEST(SeedTHProgram, StorageDataLoop) {
  EXPECT_EQ(th_programs::CaptureOutput(th_programs::StorageLoop), "0 1 2 3 4 5 6 7 8 9 size 10\n");
}

TEST(SeedTHProgram, StridesOf8x4x6x7) {
  EXPECT_EQ(th_programs::CaptureOutput(th_programs::Strides4d), "strides: 168 42 7 1\n");
}

TEST(SeedTHProgram, TransposeKeepsTheStorage) {
  EXPECT_EQ(th_programs::CaptureOutput(th_programs::Transpose),
            "Before transpose:\n"
            "strides: 4 1\n"
            "content:\n"
            "0 1 2 3 \n4 5 6 7 \n8 9 10 11 \n"
            "After transpose:\n"
            "strides: 1 4\n"
            "content:\n"
            "0 1 2 3 \n4 5 6 7 \n8 9 10 11 \n");
}

TEST(SeedTHProgram, DataIsStorageDataPlusOffset) {
  THTensor* ts = THTensor_(newWithSize4d)(8, 4, 6, 7);
  THTensor* sub = THTensor_(newNarrow)(ts, 0, 3, 2);
  THTensor_(select)(sub, NULL, 1, 2);
  EXPECT_EQ(THTensor_(storageOffset)(sub), 3 * 168 + 2 * 42);
  EXPECT_EQ(THTensor_(data)(sub), THStorage_(data)(THTensor_(storage)(ts)) + 3 * 168 + 2 * 42);
  THTensor* empty = THTensor_(new)();
  EXPECT_EQ(THTensor_(data)(empty), nullptr);  // no storage: NULL, as the note's code says
  EXPECT_EQ(THTensor_(storage)(empty), nullptr);
  THTensor_(free)(empty);
  THTensor_(free)(sub);
  THTensor_(free)(ts);
}

TEST(SeedTHProgram, NoteLoopAndApplyWalkTheTransposeInLogicalOrder) {
  THTensor* tensor1 = THTensor_(newWithSize2d)(3, 4);
  double* data = THTensor_(data)(tensor1);
  for (int i = 0; i != 12; ++i) data[i] = i;
  THTensor* tensor2 = THTensor_(newTranspose)(tensor1, 0, 1);
  const std::vector<double> order{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};
  EXPECT_EQ(th_programs::NoteLoop(tensor2), order);
  std::vector<double> seen;
  TH_TENSOR_APPLY(real, tensor2, seen.push_back(*tensor2_data););
  EXPECT_EQ(seen, order);
  THTensor_(free)(tensor2);
  THTensor_(free)(tensor1);
}

}  // namespace
