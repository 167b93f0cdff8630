// Tests of shade::dist (include/shade/dist.h), run under mpirun with 2 and 3 ranks (see
// tests/dist/CMakeLists.txt). Every rank fills its arrays with small integers that depend on
// its rank, so each collective's result is known exactly: the oracle is a loop over the ranks
// in double precision. Every dtype, every operation, rank 0 and 0-size arrays, non-contiguous
// views, the static Tensor and TBlob front ends, non-blocking requests, buckets, the checked
// mode's mismatch error and an MPI error turned into shade::Error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../error_test_util.h"
#include "shade/dist.h"

namespace {

using shade::index_t;
using shade::IndexSpan;
using shade::NDArray;
using shade::dist::Communicator;
using shade::dist::ReduceOp;

const ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kProd};

// The value rank `r` holds at flat index i: 1..5, so that sums (<= 15 over 3 ranks) and
// products (<= 125) are exact in every dtype, int8 and bfloat16 included.
double Value(int r, index_t i) {
  return static_cast<double>((r * 3 + i * 7 + 1) % 5 + 1);
}

// The value as the dtype stores it (bool: odd values are true).
double AsStored(int flag, double v) {
  return flag == shade::kBool ? static_cast<double>(static_cast<long>(v) % 2) : v;
}

// A contiguous array of `flag` whose flat element i is f(i) (converted to the dtype).
NDArray Make(int flag, std::vector<index_t> sizes, const std::function<double(index_t)>& f) {
  NDArray a = NDArray::Empty(IndexSpan(sizes), flag);
  SHADE_TYPE_SWITCH(flag, T, {
    T* p = a.data<T>();
    for (index_t i = 0; i < a.numel(); ++i) {
      if constexpr (std::is_same<T, bool>::value) {
        p[i] = f(i) != 0;
      } else {
        p[i] = static_cast<T>(f(i));
      }
    }
  });
  return a;
}

// The elements of any array in row-major order, as doubles.
std::vector<double> Values(const NDArray& a) {
  const NDArray c = a.contiguous();
  std::vector<double> out(static_cast<std::size_t>(c.numel()));
  SHADE_TYPE_SWITCH(c.type_flag(), T, {
    const T* p = c.data<T>();
    for (index_t i = 0; i < c.numel(); ++i)
      out[static_cast<std::size_t>(i)] = static_cast<double>(p[i]);
  });
  return out;
}

// What `op` over every rank's Value(r, i) gives, as the dtype stores it.
double Reduced(int flag, ReduceOp op, int size, index_t i) {
  double acc = AsStored(flag, Value(0, i));
  for (int r = 1; r < size; ++r) {
    const double v = AsStored(flag, Value(r, i));
    switch (op) {
      case ReduceOp::kSum:
        acc += v;
        break;
      case ReduceOp::kMax:
        acc = std::max(acc, v);
        break;
      case ReduceOp::kMin:
        acc = std::min(acc, v);
        break;
      case ReduceOp::kProd:
        acc *= v;
        break;
    }
  }
  return flag == shade::kBool ? static_cast<double>(acc != 0) : acc;
}

// This rank's values, one array per dtype.
NDArray Mine(const Communicator& c, int flag, std::vector<index_t> sizes) {
  const int r = c.rank();
  return Make(flag, std::move(sizes), [&](index_t i) { return AsStored(flag, Value(r, i)); });
}

std::string Where(int flag, ReduceOp op) {
  return std::string(shade::TypeFlagName(flag)) + " " + shade::dist::ReduceOpName(op);
}

using shade_test::Contains;
using shade_test::ErrorOf;

TEST(Dist, RankSizeSplitBarrier) {
  const Communicator world = Communicator::World();
  ASSERT_GE(world.size(), 2);
  ASSERT_GE(world.rank(), 0);
  ASSERT_LT(world.rank(), world.size());
  // Even and odd ranks, ranked in reverse order of the world rank.
  const Communicator half = world.Split(world.rank() % 2, -world.rank());
  const int evens = (world.size() + 1) / 2;
  EXPECT_EQ(half.size(), world.rank() % 2 == 0 ? evens : world.size() - evens);
  EXPECT_EQ(half.rank(), half.size() - 1 - world.rank() / 2);
  // The sub-communicator really is a separate group: its sum counts only its members.
  NDArray one = Make(shade::kInt32, {1}, [](index_t) { return 1.0; });
  half.Allreduce(one);
  EXPECT_EQ(Values(one)[0], half.size());
  half.Barrier();
  world.Barrier();
  EXPECT_TRUE(Contains(ErrorOf([&] { world.Split(-1, 0); }), "color must be >= 0"));
}

TEST(Dist, AllreduceEveryDtypeOpAndShape) {
  const Communicator c = Communicator::World();
  const std::vector<std::vector<index_t>> shapes = {{3, 5}, {}, {0, 3}, {7}};
  for (int flag = 0; flag < shade::kNumRealTypeFlags; ++flag) {  // no complex collectives yet
    for (ReduceOp op : kOps) {
      for (const auto& sizes : shapes) {
        NDArray x = Mine(c, flag, sizes);
        c.Allreduce(x, op);
        ASSERT_EQ(x.sizes(), IndexSpan(sizes));
        const std::vector<double> got = Values(x);
        for (index_t i = 0; i < x.numel(); ++i) {
          ASSERT_EQ(got[static_cast<std::size_t>(i)], Reduced(flag, op, c.size(), i))
              << Where(flag, op) << " element " << i;
        }
      }
    }
  }
}

// A strided view (every other column of a wider array): results land in the view only.
TEST(Dist, NonContiguousViews) {
  const Communicator c = Communicator::World();
  for (int flag : {shade::kFloat32, shade::kFloat16, shade::kInt64, shade::kBfloat16}) {
    NDArray wide = Make(flag, {4, 6}, [](index_t) { return 99.0; });
    const NDArray view = wide.slice(1, 0, 6, 2);  // 4 x 3, column stride 2
    ASSERT_FALSE(view.is_contiguous());
    view.copy_(Mine(c, flag, {4, 3}));
    c.Allreduce(view, ReduceOp::kSum);
    const std::vector<double> got = Values(view);
    for (index_t i = 0; i < 12; ++i) {
      ASSERT_EQ(got[static_cast<std::size_t>(i)], Reduced(flag, ReduceOp::kSum, c.size(), i))
          << shade::TypeFlagName(flag) << " " << i;
    }
    const std::vector<double> skipped = Values(wide.slice(1, 1, 6, 2));
    for (double v : skipped) ASSERT_EQ(v, 99.0) << "an element outside the view was written";
    // Transposed view through Broadcast from the last rank.
    const NDArray t = Mine(c, flag, {3, 4}).transpose(0, 1);
    c.Broadcast(t, c.size() - 1);
    const std::vector<double> b = Values(t.transpose(0, 1));
    for (index_t i = 0; i < 12; ++i) {
      ASSERT_EQ(b[static_cast<std::size_t>(i)], AsStored(flag, Value(c.size() - 1, i)));
    }
  }
}

TEST(Dist, BroadcastAllgatherGatherScatterReduceScatter) {
  const Communicator c = Communicator::World();
  const int n = c.size();
  for (int flag = 0; flag < shade::kNumRealTypeFlags; ++flag) {  // no complex collectives yet
    const std::string what = shade::TypeFlagName(flag);
    for (const std::vector<index_t>& sizes : std::vector<std::vector<index_t>>{{2, 3}, {}, {0}}) {
      const index_t numel = shade::TShape(sizes.begin(), sizes.end()).Size();
      // Broadcast from every root.
      for (int root = 0; root < n; ++root) {
        NDArray x = Mine(c, flag, sizes);
        c.Broadcast(x, root);
        const std::vector<double> got = Values(x);
        for (index_t i = 0; i < numel; ++i) {
          ASSERT_EQ(got[static_cast<std::size_t>(i)], AsStored(flag, Value(root, i))) << what;
        }
      }
      // Allgather: row r is rank r's array.
      const NDArray g = c.Allgather(Mine(c, flag, sizes));
      ASSERT_EQ(g.ndim(), static_cast<int>(sizes.size()) + 1) << what;
      ASSERT_EQ(g.size(0), n);
      std::vector<double> got = Values(g);
      for (int r = 0; r < n; ++r) {
        for (index_t i = 0; i < numel; ++i) {
          ASSERT_EQ(got[static_cast<std::size_t>(r * numel + i)], AsStored(flag, Value(r, i)))
              << what << " rank " << r;
        }
      }
      // Gather to the last rank.
      const NDArray gathered = c.Gather(Mine(c, flag, sizes), n - 1);
      if (c.rank() == n - 1) {
        ASSERT_TRUE(gathered.defined());
        EXPECT_EQ(Values(gathered), got) << what;
      } else {
        EXPECT_FALSE(gathered.defined());
      }
      // Scatter from rank 0 of the gathered rows: every rank gets its own values back.
      NDArray dst = Make(flag, sizes, [](index_t) { return 0.0; });
      c.Scatter(c.rank() == 0 ? g : NDArray(), dst, 0);
      const std::vector<double> back = Values(dst);
      for (index_t i = 0; i < numel; ++i) {
        ASSERT_EQ(back[static_cast<std::size_t>(i)], AsStored(flag, Value(c.rank(), i))) << what;
      }
    }
    // ReduceScatter: 2 rows per rank; this rank gets rows [2 rank, 2 rank + 2) of the sum.
    for (ReduceOp op : kOps) {
      const NDArray part = c.ReduceScatter(Mine(c, flag, {2 * n, 3}), op);
      ASSERT_EQ(part.sizes(), IndexSpan({2, 3}));
      const std::vector<double> got = Values(part);
      for (index_t i = 0; i < 6; ++i) {
        ASSERT_EQ(got[static_cast<std::size_t>(i)], Reduced(flag, op, n, 6 * c.rank() + i))
            << Where(flag, op);
      }
    }
  }
}

TEST(Dist, ArgumentErrors) {
  const Communicator c = Communicator::World();
  NDArray x = Mine(c, shade::kFloat32, {3});
  EXPECT_TRUE(Contains(ErrorOf([&] { c.Broadcast(x, c.size()); }), "is not a rank"));
  EXPECT_TRUE(Contains(ErrorOf([&] { c.Allreduce(NDArray()); }), "undefined"));
  EXPECT_TRUE(Contains(ErrorOf([&] { c.ReduceScatter(Mine(c, shade::kFloat32, {c.size() + 1})); }),
                       "multiple of the communicator size"));
  c.Barrier();
}

TEST(Dist, StaticTensorsAndTBlobs) {
  const Communicator c = Communicator::World();
  // A 3 x 4 float tensor with padded rows (pitch 6): the padding must stay untouched.
  std::vector<float> mem(3 * 6, -7.0f);
  shade::Tensor<shade::cpu, 2, float> t(mem.data(), shade::Shape2(3, 4), 6, nullptr);
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 4; ++j) t[i][j] = static_cast<float>(Value(c.rank(), i * 4 + j));
  }
  c.Allreduce(t, ReduceOp::kMax);
  for (index_t i = 0; i < 3; ++i) {
    for (index_t j = 0; j < 4; ++j) {
      ASSERT_EQ(t[i][j], Reduced(shade::kFloat32, ReduceOp::kMax, c.size(), i * 4 + j));
    }
    ASSERT_EQ(mem[static_cast<std::size_t>(i * 6 + 4)], -7.0f);
    ASSERT_EQ(mem[static_cast<std::size_t>(i * 6 + 5)], -7.0f);
  }
  const NDArray g = c.Allgather(t);
  EXPECT_EQ(g.sizes(), IndexSpan({c.size(), 3, 4}));
  // A half TBlob, summed, then broadcast from rank 1.
  NDArray h = Mine(c, shade::kFloat16, {2, 5});
  const shade::TBlob blob = shade::ToTBlob(h);
  c.Allreduce(blob, ReduceOp::kSum);
  std::vector<double> got = Values(h);
  for (index_t i = 0; i < 10; ++i) {
    ASSERT_EQ(got[static_cast<std::size_t>(i)],
              Reduced(shade::kFloat16, ReduceOp::kSum, c.size(), i));
  }
  NDArray h2 = Mine(c, shade::kFloat16, {2, 5});
  c.Broadcast(shade::ToTBlob(h2), 1);
  got = Values(h2);
  for (index_t i = 0; i < 10; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], Value(1, i));
  // Scatter between static tensors: root 0 sends row r of a (size x 4) int32 tensor to rank r.
  std::vector<std::int32_t> src(static_cast<std::size_t>(4 * c.size()));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::int32_t>(i);
  std::vector<std::int32_t> dst(4, -1);
  c.Scatter(shade::Tensor<shade::cpu, 2, std::int32_t>(src.data(), shade::Shape2(c.size(), 4)),
            shade::Tensor<shade::cpu, 1, std::int32_t>(dst.data(), shade::Shape1(4)), 0);
  for (int j = 0; j < 4; ++j) ASSERT_EQ(dst[static_cast<std::size_t>(j)], 4 * c.rank() + j);
}

TEST(Dist, NonBlockingRequests) {
  const Communicator c = Communicator::World();
  NDArray a = Mine(c, shade::kFloat64, {1000});
  NDArray b = Mine(c, shade::kBfloat16, {5, 4}).transpose(0, 1);  // packed and unpacked
  shade::dist::Request ra = c.IAllreduce(a, ReduceOp::kSum);
  shade::dist::Request rb = c.IAllreduce(b, ReduceOp::kProd);
  EXPECT_FALSE(ra.done());
  while (!ra.Test()) {
  }
  EXPECT_TRUE(ra.done());
  rb.Wait();
  EXPECT_TRUE(rb.done());
  rb.Wait();  // a finished request may be waited for again
  const std::vector<double> ga = Values(a);
  for (index_t i = 0; i < 1000; ++i) {
    ASSERT_EQ(ga[static_cast<std::size_t>(i)],
              Reduced(shade::kFloat64, ReduceOp::kSum, c.size(), i));
  }
  const std::vector<double> gb = Values(b.transpose(0, 1));
  for (index_t i = 0; i < 20; ++i) {
    ASSERT_EQ(gb[static_cast<std::size_t>(i)],
              Reduced(shade::kBfloat16, ReduceOp::kProd, c.size(), i));
  }
  // The request owns what it writes back to: here the only handle of the view is a temporary
  // that dies before the wait (blocking calls borrow the caller's handle, requests must not).
  NDArray base = Mine(c, shade::kFloat32, {4, 3});
  shade::dist::Request rt = c.IAllreduce(base.transpose(0, 1), ReduceOp::kSum);
  rt.Wait();
  const std::vector<double> gt = Values(base);
  for (index_t i = 0; i < 12; ++i) {
    ASSERT_EQ(gt[static_cast<std::size_t>(i)],
              Reduced(shade::kFloat32, ReduceOp::kSum, c.size(), i));
  }
  NDArray x = Mine(c, shade::kInt16, {3});
  { shade::dist::Request r = c.IBroadcast(x, 0); }  // the destructor waits
  EXPECT_EQ(Values(x), Values(Make(shade::kInt16, {3}, [](index_t i) { return Value(0, i); })));
}

TEST(Dist, BucketedAllreduceOfManyArrays) {
  const Communicator c = Communicator::World();
  std::vector<NDArray> arrays;
  std::vector<int> flags;
  std::vector<std::vector<index_t>> sizes;
  for (int k = 0; k < 12; ++k) {
    flags.push_back(k < 8 ? shade::kFloat32 : (k < 10 ? shade::kFloat16 : shade::kInt32));
    sizes.push_back(k == 3 ? std::vector<index_t>{0, 4} : std::vector<index_t>{k + 1, 3});
    arrays.push_back(Mine(c, flags.back(), sizes.back()));
  }
  arrays[5] = Make(shade::kFloat32, {4, 8}, [](index_t) { return 0.0; }).slice(1, 0, 8, 2);
  arrays[5].copy_(Mine(c, shade::kFloat32, {4, 4}));
  sizes[5] = {4, 4};
  // 64-byte buckets: several per dtype, and arrays larger than a bucket get their own.
  shade::dist::BucketedAllreduce buckets(c, arrays, ReduceOp::kSum, 64);
  EXPECT_GT(buckets.num_buckets(), 4u);
  EXPECT_NE(buckets.bucket_of(7), buckets.bucket_of(8)) << "a bucket holds one dtype";
  for (int round = 0; round < 2; ++round) {
    for (int k = 11; k >= 0; --k) {
      arrays[static_cast<std::size_t>(k)].copy_(
          Mine(c, flags[static_cast<std::size_t>(k)], sizes[static_cast<std::size_t>(k)]));
      if (k % 3 != 0) buckets.MarkReady(static_cast<std::size_t>(k));  // Wait marks the rest
    }
    EXPECT_TRUE(Contains(ErrorOf([&] { buckets.MarkReady(1); }), "already marked ready"));
    buckets.Wait();
    for (std::size_t k = 0; k < arrays.size(); ++k) {
      const std::vector<double> got = Values(arrays[k]);
      for (std::size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i], Reduced(flags[k], ReduceOp::kSum, c.size(), static_cast<index_t>(i)))
            << "array " << k << " element " << i << " round " << round;
      }
    }
  }
}

// Checked mode: a shape, dtype or collective mismatch is reported on every rank, after which
// the communicator still works (no data moved).
TEST(Dist, CheckedModeReportsMismatchOnEveryRank) {
  Communicator c = Communicator::World();
  c.set_checked(true);
  const bool first = c.rank() == 0;
  NDArray x = Mine(c, shade::kFloat32, {3, first ? 4 : 5});
  std::string msg = ErrorOf([&] { c.Allreduce(x); });
  EXPECT_TRUE(Contains(msg, "mismatched collectives")) << msg;
  EXPECT_TRUE(Contains(msg, "rank 0: Allreduce of float32 (3,4) op sum")) << msg;
  EXPECT_TRUE(Contains(msg, "rank 1: Allreduce of float32 (3,5) op sum")) << msg;
  NDArray y = Mine(c, first ? shade::kFloat64 : shade::kFloat32, {2});
  msg = ErrorOf([&] { c.Allreduce(y, ReduceOp::kMax); });
  EXPECT_TRUE(Contains(msg, "rank 0: Allreduce of float64 (2) op max")) << msg;
  msg = ErrorOf([&] {
    if (first) {
      c.Allreduce(y);
    } else {
      c.Broadcast(y, 0);
    }
  });
  EXPECT_TRUE(Contains(msg, "rank 1: Broadcast of float32 (2) root 0")) << msg;
  // A bad argument on one rank only: every rank throws instead of waiting forever.
  msg = ErrorOf([&] { c.Broadcast(x, first ? 99 : 0); });
  EXPECT_TRUE(Contains(msg, "rank 0 rejected its arguments")) << msg;
  // Still usable, and agreeing calls pass the check.
  NDArray z = Mine(c, shade::kInt32, {4});
  c.Allreduce(z);
  EXPECT_EQ(Values(z)[0], Reduced(shade::kInt32, ReduceOp::kSum, c.size(), 0));
}

// Unchecked, a broadcast whose receivers expect fewer elements than root sends fails inside
// MPI; the MPI error (MPI_ERRORS_RETURN) comes back from Request::Wait as shade::Error with
// MPI's text. The non-blocking form is used because Open MPI's schedule for it at 2 and 3 ranks
// sends from root to every rank directly, so no rank waits for a failed one to forward the data
// (the blocking MPI_Bcast pipelines through ranks and would leave the third one waiting).
TEST(Dist, MpiErrorBecomesShadeError) {
  Communicator c = Communicator::World();
  c.set_checked(false);  // even under SHADE_DIST_CHECK=1
  NDArray x = Mine(c, shade::kFloat32, {c.rank() == 0 ? 64 : 16});
  if (c.rank() == 0) {
    c.IBroadcast(x, 0).Wait();
  } else {
    const std::string msg = ErrorOf([&] { c.IBroadcast(x, 0).Wait(); });
    EXPECT_TRUE(Contains(msg, "MPI_Wait failed with MPI error")) << msg;
    EXPECT_TRUE(Contains(msg, "truncat")) << msg;
  }
  c.Barrier();
}

// Run only by tests/dist/early_exit.sh: the last rank dies while the others wait in a
// collective; mpirun must end the job with an error instead of hanging.
TEST(Dist, DISABLED_RankExitsEarly) {
  const Communicator c = Communicator::World();
  if (c.rank() == c.size() - 1) std::_Exit(3);
  NDArray x = Mine(c, shade::kFloat32, {16});
  for (;;) c.Allreduce(x);
}

}  // namespace

int main(int argc, char** argv) {
  shade::dist::Environment env = shade::dist::Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
