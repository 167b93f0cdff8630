// shade::dist over MPI: environment, communicators, blocking and non-blocking collectives,
// the checked-mode header exchange and the 16-bit float reductions (include/shade/dist.h).
#include "shade/dist.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>

#include "shade/backend/cpu/kernels.h"
#include "shade/base/checked.h"
#include "shade/base/dtype.h"
#include "shade/base/half.h"
#include "shade/functor/numpy.h"
#include "shade/functor/sv.h"

namespace shade {
namespace dist {

namespace {

// Throws shade::Error with MPI's error string when an MPI call failed.
void CheckMpi(int rc, const char* call, const char* where) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) std::snprintf(text, sizeof(text), "?");
  SHADE_THROW << "shade::dist::" << where << ": " << call << " failed with MPI error " << rc << ": "
              << text;
}

void CheckInitialized(const char* where) {
  SHADE_CHECK(IsInitialized()) << "shade::dist::" << where
                               << ": MPI is not initialised; call shade::dist::Init(&argc, "
                                  "&argv) first and keep the Environment alive";
}

// ------------------------------------------------------------------ 16-bit float reductions
// One MPI datatype per 16-bit float (2 opaque bytes) and one user-defined MPI operation per
// ReduceOp that recognises the datatype; created in Environment, freed before MPI_Finalize.
MPI_Datatype g_half_type = MPI_DATATYPE_NULL;
MPI_Datatype g_bf16_type = MPI_DATATYPE_NULL;
MPI_Op g_float16_ops[4] = {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL};

// inout = in OP inout over 16-bit floats through the kernel layer's loop and NumPy's functors
// (computed in float, rounded once; maximum/minimum propagate NaN as NumPy does).
template <typename OP>
void Reduce16(void* in, void* inout, int* len, MPI_Datatype* type) {
  const index_t n = *len;
  if (*type == g_bf16_type) {
    auto* io = static_cast<bf16_t*>(inout);
    kernel::MapRun<sv::saveto, OP>(n, io, static_cast<const bf16_t*>(in),
                                   static_cast<const bf16_t*>(io));
  } else {
    auto* io = static_cast<half_t*>(inout);
    kernel::MapRun<sv::saveto, OP>(n, io, static_cast<const half_t*>(in),
                                   static_cast<const half_t*>(io));
  }
}

void CreateFloat16Types() {
  CheckMpi(MPI_Type_contiguous(2, MPI_BYTE, &g_half_type), "MPI_Type_contiguous", "Init");
  CheckMpi(MPI_Type_commit(&g_half_type), "MPI_Type_commit", "Init");
  CheckMpi(MPI_Type_contiguous(2, MPI_BYTE, &g_bf16_type), "MPI_Type_contiguous", "Init");
  CheckMpi(MPI_Type_commit(&g_bf16_type), "MPI_Type_commit", "Init");
  // In ReduceOp's order: kSum, kMax, kMin, kProd.
  MPI_User_function* fns[4] = {Reduce16<op::numpy::plus>, Reduce16<op::numpy::maximum>,
                               Reduce16<op::numpy::minimum>, Reduce16<op::numpy::mul>};
  for (int i = 0; i < 4; ++i) {
    CheckMpi(MPI_Op_create(fns[i], 1, &g_float16_ops[i]), "MPI_Op_create", "Init");
  }
}

void FreeFloat16Types() {
  for (MPI_Op& op : g_float16_ops) {
    if (op != MPI_OP_NULL) MPI_Op_free(&op);
  }
  if (g_half_type != MPI_DATATYPE_NULL) MPI_Type_free(&g_half_type);
  if (g_bf16_type != MPI_DATATYPE_NULL) MPI_Type_free(&g_bf16_type);
}

// The MPI datatype of a dtype flag.
MPI_Datatype MpiType(int flag) {
  switch (flag) {
    case kFloat32:
      return MPI_FLOAT;
    case kFloat64:
      return MPI_DOUBLE;
    case kFloat16:
      return g_half_type;
    case kBfloat16:
      return g_bf16_type;
    case kUint8:
      return MPI_UINT8_T;
    case kInt8:
      return MPI_INT8_T;
    case kInt16:
      return MPI_INT16_T;
    case kUint16:
      return MPI_UINT16_T;
    case kInt32:
      return MPI_INT32_T;
    case kUint32:
      return MPI_UINT32_T;
    case kInt64:
      return MPI_INT64_T;
    case kUint64:
      return MPI_UINT64_T;
    case kBool:
      return MPI_C_BOOL;  // 1 byte on every ABI shade supports, like C++ bool
    default:
      break;
  }
  SHADE_THROW_TYPE << "shade::dist: no MPI datatype for dtype flag " << flag;
}

// The MPI operation of `op` on elements of dtype `flag`.
MPI_Op MpiOp(ReduceOp op, int flag) {
  const int i = static_cast<int>(op);
  SHADE_CHECK(i >= 0 && i < 4) << "shade::dist: unknown ReduceOp " << i;
  if (flag == kFloat16 || flag == kBfloat16) return g_float16_ops[i];
  if (flag == kBool) {
    // NumPy's bool arithmetic: add and maximum are "or", multiply and minimum "and".
    return op == ReduceOp::kSum || op == ReduceOp::kMax ? MPI_LOR : MPI_LAND;
  }
  static const MPI_Op kOps[4] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD};
  return kOps[i];
}

// MPI counts are int: a larger array is refused with its size rather than truncated.
int MpiCount(index_t n, const char* where) {
  SHADE_CHECK_LE(n, static_cast<index_t>(INT_MAX))
      << "shade::dist::" << where << ": " << n
      << " elements exceed MPI's int count; split the array";
  return static_cast<int>(n);
}

// MPI wants a valid address even for zero elements.
void* NonNull(void* p) {
  static unsigned char dummy[16];
  return p != nullptr ? p : dummy;
}

// The caller's array and the contiguous buffer MPI works on (the array itself when it is
// contiguous, else a packed copy written back by Unpack).
struct Packed {
  // Borrowed: a blocking call returns before the caller's array can go away, and not copying
  // the handle saves two atomic refcount updates, most of shade's per-call cost (measured 29 ns
  // of a 44 ns overhead on a 1 KiB Allreduce). A Request calls Keep() to own it instead.
  const NDArray* target = nullptr;
  NDArray copy;   // undefined when the target is contiguous
  NDArray owner;  // defined after Keep()
  void* data() const { return copy.defined() ? copy.data_ptr() : target->data_ptr(); }
  void Unpack() const {
    if (copy.defined()) target->copy_(copy);
  }
  // Holds the caller's array for a non-blocking call, which may outlive the caller's handle.
  void Keep() {
    owner = *target;
    target = &owner;
  }
};

void CheckArray(const NDArray& x, const char* where, const char* name = "the array") {
  SHADE_CHECK(x.defined()) << "shade::dist::" << where << ": " << name << " is undefined";
  SHADE_CHECK_EQ(x.dev_mask(), cpu::kDevMask)
      << "shade::dist::" << where << ": " << name << " " << x
      << " is not on the CPU (device collectives are not built)";
  SHADE_CHECK_TYPE(IsValidTypeFlag(x.type_flag()))
      << "shade::dist::" << where << ": " << name << " has element type " << x.dtype().name()
      << ", which is not a numeric dtype";
  SHADE_CHECK(x.data_ptr() != nullptr || x.numel() == 0)
      << "shade::dist::" << where << ": " << name << " " << x << " has no memory allocated";
}

Packed Pack(const NDArray& x, const char* where) {
  CheckArray(x, where);
  return Packed{&x, x.is_contiguous() ? NDArray() : x.contiguous(), NDArray()};
}

std::vector<index_t> WithLeading(index_t lead, IndexSpan rest) {
  std::vector<index_t> sizes{lead};
  sizes.insert(sizes.end(), rest.begin(), rest.end());
  return sizes;
}

// ------------------------------------------------------------------ checked mode
enum class Kind : std::int64_t {
  kAllreduce = 1,
  kBroadcast,
  kAllgather,
  kReduceScatter,
  kGather,
  kScatter
};

const char* KindName(std::int64_t k) {
  static const char* kNames[] = {"?",      "Allreduce", "Broadcast", "Allgather", "ReduceScatter",
                                 "Gather", "Scatter"};
  return k >= 1 && k <= 6 ? kNames[k] : "?";
}

// What each rank says it is about to do: collective, root, op, dtype, rank, sizes.
constexpr int kHeaderDims = 8;
constexpr int kHeaderLen = 6 + kHeaderDims;
constexpr std::int64_t kHeaderMagic = 0x5348414445445354;  // "SHADEDST"

struct Header {
  std::int64_t v[kHeaderLen] = {};
};

Header MakeHeader(Kind kind, const NDArray& x, int root, int op) {
  Header h;
  h.v[0] = kHeaderMagic;
  h.v[1] = static_cast<std::int64_t>(kind);
  h.v[2] = root;
  h.v[3] = op;
  h.v[4] = x.type_flag();
  h.v[5] = x.ndim();
  // The first kHeaderDims sizes; deeper ranks fold the rest into the last slot.
  for (int d = 0; d < x.ndim(); ++d) {
    const int slot = std::min(d, kHeaderDims - 1);
    h.v[6 + slot] = d < kHeaderDims ? x.size(d) : h.v[6 + slot] * x.size(d);
  }
  return h;
}

std::string DescribeHeader(const Header& h) {
  std::ostringstream os;
  if (h.v[0] != kHeaderMagic) {
    os << "a different collective or a non-checked call";
    return os.str();
  }
  os << KindName(h.v[1]) << " of "
     << (IsValidTypeFlag(static_cast<int>(h.v[4])) ? TypeFlagName(static_cast<int>(h.v[4])) : "?")
     << " (";
  const std::int64_t nd = h.v[5];
  for (std::int64_t d = 0; d < std::min<std::int64_t>(nd, kHeaderDims); ++d) {
    os << (d > 0 ? "," : "") << h.v[6 + d];
  }
  if (nd > kHeaderDims) os << ",...";
  os << ")";
  if (h.v[1] == static_cast<std::int64_t>(Kind::kAllreduce) ||
      h.v[1] == static_cast<std::int64_t>(Kind::kReduceScatter)) {
    os << " op " << ReduceOpName(static_cast<ReduceOp>(h.v[3]));
  } else if (h.v[1] != static_cast<std::int64_t>(Kind::kAllgather)) {
    os << " root " << h.v[2];
  }
  return os.str();
}

}  // namespace

// ------------------------------------------------------------------ public free functions
const char* ReduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kMax:
      return "max";
    case ReduceOp::kMin:
      return "min";
    case ReduceOp::kProd:
      return "prod";
  }
  return "?";
}

bool IsInitialized() {
  // MPI_Initialized never turns false again, so one true answer is kept (each query takes
  // Open MPI's lock; every collective asks). MPI_Finalized is still asked each time.
  static std::atomic<bool> initialized{false};
  if (!initialized.load(std::memory_order_relaxed)) {
    int init = 0;
    MPI_Initialized(&init);
    if (init == 0) return false;
    initialized.store(true, std::memory_order_relaxed);
  }
  int fin = 0;
  MPI_Finalized(&fin);
  return fin == 0;
}

void Abort(int code) {
  if (IsInitialized()) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

Environment::Environment(int* argc, char*** argv) {
  int init = 0;
  MPI_Initialized(&init);
  if (init == 0) {
    int provided = 0;
    // Only the thread that called Init communicates; shade's OpenMP threads never do.
    CheckMpi(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread",
             "Init");
    owns_ = true;
  }
  CheckMpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler",
           "Init");
  if (g_half_type == MPI_DATATYPE_NULL) CreateFloat16Types();
}

Environment::Environment(Environment&& other) noexcept : owns_(other.owns_) {
  other.owns_ = false;
}

Environment::~Environment() {
  if (!owns_ || !IsInitialized()) return;
  FreeFloat16Types();
  MPI_Finalize();
}

// ------------------------------------------------------------------ Communicator
struct Communicator::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  bool owned = false;  // MPI_COMM_WORLD is not freed
  int rank = 0;
  int size = 1;
  ~Impl() {
    if (owned && comm != MPI_COMM_NULL && IsInitialized()) MPI_Comm_free(&comm);
  }
};

Communicator::Impl& Communicator::impl() const {
  SHADE_CHECK(impl_ != nullptr) << "shade::dist: the Communicator is empty";
  CheckInitialized("Communicator");
  return *impl_;
}

namespace {

std::shared_ptr<Communicator::Impl> MakeImpl(MPI_Comm comm, bool owned) {
  auto impl = std::make_shared<Communicator::Impl>();
  impl->comm = comm;
  impl->owned = owned;
  CheckMpi(MPI_Comm_rank(comm, &impl->rank), "MPI_Comm_rank", "Communicator");
  CheckMpi(MPI_Comm_size(comm, &impl->size), "MPI_Comm_size", "Communicator");
  return impl;
}

bool CheckedFromEnvironment() {
  const char* v = std::getenv("SHADE_DIST_CHECK");
  return v != nullptr && v[0] != '\0' && std::strcmp(v, "0") != 0;
}

// Checked mode: every rank publishes its header; every rank throws the same message when
// they differ (or when some rank already rejected its own arguments).
void ExchangeHeaders(const Communicator::Impl& c, const Header& mine, const char* where,
                     const std::string& local_error) {
  Header h = mine;
  if (!local_error.empty()) h.v[0] = -1;  // "this rank refused its arguments"
  std::vector<Header> all(static_cast<std::size_t>(c.size));
  CheckMpi(MPI_Allgather(h.v, kHeaderLen, MPI_INT64_T, all.data(), kHeaderLen, MPI_INT64_T, c.comm),
           "MPI_Allgather (checked-mode header)", where);
  std::ostringstream diff;
  bool mismatch = false;
  for (int r = 0; r < c.size; ++r) {
    const Header& o = all[static_cast<std::size_t>(r)];
    if (o.v[0] == -1) {
      mismatch = true;
      diff << "; rank " << r << " rejected its arguments"
           << (r == c.rank ? " (" + local_error + ")" : std::string());
      continue;
    }
    // A scatter's non-root ranks do not know root's source; everything else must match.
    if (std::memcmp(o.v, all[0].v, sizeof(o.v)) != 0) mismatch = true;
  }
  if (!mismatch) return;
  std::ostringstream os;
  for (int r = 0; r < c.size; ++r) {
    const Header& o = all[static_cast<std::size_t>(r)];
    if (o.v[0] != -1) os << "; rank " << r << ": " << DescribeHeader(o);
  }
  SHADE_THROW_SHAPE << "shade::dist::" << where << " (rank " << c.rank << " of " << c.size
                    << ", checked mode): the ranks called mismatched collectives" << os.str()
                    << diff.str();
}

// Runs the local argument checks; in checked mode they and the header exchange happen before
// any data moves, so every rank learns about a mistake of any rank.
template <typename Fn>
void Guard(const Communicator::Impl& c, bool checked, const char* where, Kind kind,
           const NDArray& x, int root, int op, Fn&& local_checks) {
  std::string local_error;
  try {
    local_checks();
  } catch (const Error& e) {
    if (!checked) throw;
    local_error = e.what();
  }
  // The header is built only in checked mode: the unchecked path stays a few checks long.
  if (checked) {
    ExchangeHeaders(c, x.defined() ? MakeHeader(kind, x, root, op) : Header{}, where, local_error);
  }
}

void CheckRoot(const Communicator::Impl& c, int root, const char* where) {
  SHADE_CHECK_SHAPE(root >= 0 && root < c.size)
      << "shade::dist::" << where << ": root " << root
      << " is not a rank of this communicator (size " << c.size << ")";
}

}  // namespace

Communicator Communicator::World() {
  CheckInitialized("Communicator::World");
  static std::shared_ptr<Impl> world;
  if (world == nullptr || !IsInitialized()) world = MakeImpl(MPI_COMM_WORLD, false);
  Communicator c(world);
  c.checked_ = CheckedFromEnvironment();
  return c;
}

int Communicator::rank() const {
  return impl().rank;
}
int Communicator::size() const {
  return impl().size;
}
void Communicator::set_checked(bool checked) {
  checked_ = checked;
}
bool Communicator::checked() const {
  return checked_;
}

Communicator Communicator::Split(int color, int key) const {
  const Impl& c = impl();
  SHADE_CHECK_GE(color, 0) << "shade::dist::Split: color must be >= 0";
  MPI_Comm out = MPI_COMM_NULL;
  CheckMpi(MPI_Comm_split(c.comm, color, key, &out), "MPI_Comm_split", "Split");
  CheckMpi(MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler", "Split");
  Communicator result(MakeImpl(out, true));
  result.checked_ = checked_;
  return result;
}

void Communicator::Barrier() const {
  CheckMpi(MPI_Barrier(impl().comm), "MPI_Barrier", "Barrier");
}

NDArray Communicator::Allgather(const NDArray& x) const {
  const Impl& c = impl();
  Packed p;
  Guard(c, checked_, "Allgather", Kind::kAllgather, x, 0, 0, [&] { p = Pack(x, "Allgather"); });
  NDArray out = NDArray::Empty(WithLeading(c.size, x.sizes()), x.type_flag());
  const int n = MpiCount(x.numel(), "Allgather");
  const MPI_Datatype t = MpiType(x.type_flag());
  CheckMpi(MPI_Allgather(NonNull(p.data()), n, t, NonNull(out.data_ptr()), n, t, c.comm),
           "MPI_Allgather", "Allgather");
  return out;
}

NDArray Communicator::ReduceScatter(const NDArray& x, ReduceOp op) const {
  const Impl& c = impl();
  Packed p;
  Guard(c, checked_, "ReduceScatter", Kind::kReduceScatter, x, 0, static_cast<int>(op), [&] {
    p = Pack(x, "ReduceScatter");
    SHADE_CHECK_SHAPE(x.ndim() >= 1 && x.size(0) % c.size == 0)
        << "shade::dist::ReduceScatter: the leading dimension of " << x
        << " must be a multiple of the communicator size " << c.size;
  });
  std::vector<index_t> sizes = x.sizes().vec();
  sizes[0] /= c.size;
  NDArray out = NDArray::Empty(sizes, x.type_flag());
  const int n = MpiCount(out.numel(), "ReduceScatter");
  CheckMpi(MPI_Reduce_scatter_block(NonNull(p.data()), NonNull(out.data_ptr()), n,
                                    MpiType(x.type_flag()), MpiOp(op, x.type_flag()), c.comm),
           "MPI_Reduce_scatter_block", "ReduceScatter");
  return out;
}

NDArray Communicator::Gather(const NDArray& x, int root) const {
  const Impl& c = impl();
  Packed p;
  Guard(c, checked_, "Gather", Kind::kGather, x, root, 0, [&] {
    CheckRoot(c, root, "Gather");
    p = Pack(x, "Gather");
  });
  NDArray out;
  if (c.rank == root) out = NDArray::Empty(WithLeading(c.size, x.sizes()), x.type_flag());
  const int n = MpiCount(x.numel(), "Gather");
  const MPI_Datatype t = MpiType(x.type_flag());
  CheckMpi(MPI_Gather(NonNull(p.data()), n, t, c.rank == root ? NonNull(out.data_ptr()) : nullptr,
                      n, t, root, c.comm),
           "MPI_Gather", "Gather");
  return out;
}

void Communicator::Scatter(const NDArray& src, const NDArray& dst, int root) const {
  const Impl& c = impl();
  Packed d, s;
  Guard(c, checked_, "Scatter", Kind::kScatter, dst, root, 0, [&] {
    CheckRoot(c, root, "Scatter");
    d = Pack(dst, "Scatter");
    if (c.rank != root) return;
    CheckArray(src, "Scatter", "root's source");
    SHADE_CHECK_SHAPE(src.sizes() == IndexSpan(WithLeading(c.size, dst.sizes())) &&
                      src.type_flag() == dst.type_flag())
        << "shade::dist::Scatter: root's source " << src << " must be "
        << TypeFlagName(dst.type_flag()) << " of sizes "
        << IndexSpan(WithLeading(c.size, dst.sizes())) << " (communicator size " << c.size
        << " times the destination " << dst << ")";
    s = Pack(src, "Scatter");
  });
  const int n = MpiCount(dst.numel(), "Scatter");
  const MPI_Datatype t = MpiType(dst.type_flag());
  CheckMpi(MPI_Scatter(c.rank == root ? NonNull(s.data()) : nullptr, n, t, NonNull(d.data()), n, t,
                       root, c.comm),
           "MPI_Scatter", "Scatter");
  d.Unpack();
}

// ------------------------------------------------------------------ Request
struct Request::Impl {
  MPI_Request request = MPI_REQUEST_NULL;
  Packed packed;
  const char* where = "";
  void Finish() { packed.Unpack(); }
};

Request::Request() = default;
Request::Request(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Request::Request(Request&& other) noexcept : impl_(std::move(other.impl_)) {}
Request& Request::operator=(Request&& other) {
  if (this != &other) {
    Wait();
    impl_ = std::move(other.impl_);
  }
  return *this;
}
Request::~Request() {
  try {
    Wait();
  } catch (const std::exception&) {
    // A destructor cannot report; the caller who wanted the error called Wait().
  }
}

bool Request::done() const {
  return impl_ == nullptr;
}

void Request::Wait() {
  if (impl_ == nullptr) return;
  std::unique_ptr<Impl> impl = std::move(impl_);  // complete even if Wait throws
  CheckMpi(MPI_Wait(&impl->request, MPI_STATUS_IGNORE), "MPI_Wait", impl->where);
  impl->Finish();
}

bool Request::Test() {
  if (impl_ == nullptr) return true;
  int flag = 0;
  const int rc = MPI_Test(&impl_->request, &flag, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) {
    std::unique_ptr<Impl> impl = std::move(impl_);
    CheckMpi(rc, "MPI_Test", impl->where);
  }
  if (flag == 0) return false;
  std::unique_ptr<Impl> impl = std::move(impl_);
  impl->Finish();
  return true;
}

namespace {

// The checks (and in checked mode the header exchange) of an Allreduce, then the buffer.
Packed PrepareAllreduce(const Communicator::Impl& c, bool checked, const NDArray& x, ReduceOp op) {
  Packed p;
  Guard(c, checked, "Allreduce", Kind::kAllreduce, x, 0, static_cast<int>(op), [&] {
    p = Pack(x, "Allreduce");
    MpiOp(op, x.type_flag());  // validates op
  });
  return p;
}

// The same for a Broadcast.
Packed PrepareBroadcast(const Communicator::Impl& c, bool checked, const NDArray& x, int root) {
  Packed p;
  Guard(c, checked, "Broadcast", Kind::kBroadcast, x, root, 0, [&] {
    CheckRoot(c, root, "Broadcast");
    p = Pack(x, "Broadcast");
  });
  return p;
}

}  // namespace

// The blocking forms call MPI's blocking collectives: Open MPI tunes those (its "tuned"
// component) far better than the non-blocking schedules of libnbc (measured 1.3-2.4x slower).
void Communicator::Allreduce(const NDArray& x, ReduceOp op) const {
  const Impl& c = impl();
  const Packed p = PrepareAllreduce(c, checked_, x, op);
  CheckMpi(MPI_Allreduce(MPI_IN_PLACE, NonNull(p.data()), MpiCount(x.numel(), "Allreduce"),
                         MpiType(x.type_flag()), MpiOp(op, x.type_flag()), c.comm),
           "MPI_Allreduce", "Allreduce");
  p.Unpack();
}

void Communicator::Broadcast(const NDArray& x, int root) const {
  const Impl& c = impl();
  const Packed p = PrepareBroadcast(c, checked_, x, root);
  CheckMpi(MPI_Bcast(NonNull(p.data()), MpiCount(x.numel(), "Broadcast"), MpiType(x.type_flag()),
                     root, c.comm),
           "MPI_Bcast", "Broadcast");
  p.Unpack();
}

Request Communicator::IAllreduce(const NDArray& x, ReduceOp op) const {
  const Impl& c = impl();
  auto r = std::make_unique<Request::Impl>();
  r->where = "Allreduce";
  r->packed = PrepareAllreduce(c, checked_, x, op);
  r->packed.Keep();
  CheckMpi(MPI_Iallreduce(MPI_IN_PLACE, NonNull(r->packed.data()), MpiCount(x.numel(), "Allreduce"),
                          MpiType(x.type_flag()), MpiOp(op, x.type_flag()), c.comm, &r->request),
           "MPI_Iallreduce", "Allreduce");
  return Request(std::move(r));
}

Request Communicator::IBroadcast(const NDArray& x, int root) const {
  const Impl& c = impl();
  auto r = std::make_unique<Request::Impl>();
  r->where = "Broadcast";
  r->packed = PrepareBroadcast(c, checked_, x, root);
  r->packed.Keep();
  CheckMpi(MPI_Ibcast(NonNull(r->packed.data()), MpiCount(x.numel(), "Broadcast"),
                      MpiType(x.type_flag()), root, c.comm, &r->request),
           "MPI_Ibcast", "Broadcast");
  return Request(std::move(r));
}

// ------------------------------------------------------------------ BucketedAllreduce
BucketedAllreduce::BucketedAllreduce(Communicator comm, std::vector<NDArray> arrays, ReduceOp op,
                                     std::size_t bucket_bytes)
    : comm_(std::move(comm)), arrays_(std::move(arrays)), op_(op) {
  SHADE_CHECK_GT(bucket_bytes, 0u) << "shade::dist::BucketedAllreduce: bucket_bytes must be > 0";
  bucket_of_.resize(arrays_.size());
  std::vector<index_t> bucket_elems;
  std::vector<int> bucket_flag;
  for (std::size_t i = 0; i < arrays_.size(); ++i) {
    const NDArray& a = arrays_[i];
    CheckArray(a, "BucketedAllreduce", ("array " + std::to_string(i)).c_str());
    const std::size_t bytes = a.nbytes();
    const bool fits =
        !buckets_.empty() && bucket_flag.back() == a.type_flag() &&
        static_cast<std::size_t>(bucket_elems.back()) * a.itemsize() + bytes <= bucket_bytes;
    if (!fits) {
      buckets_.emplace_back();
      bucket_elems.push_back(0);
      bucket_flag.push_back(a.type_flag());
    }
    Bucket& b = buckets_.back();
    b.members.push_back(i);
    b.offsets.push_back(bucket_elems.back());
    bucket_elems.back() = CheckedAdd(bucket_elems.back(), a.numel(), "bucket size");
    bucket_of_[i] = buckets_.size() - 1;
  }
  for (std::size_t k = 0; k < buckets_.size(); ++k) {
    buckets_[k].buffer = NDArray::Empty({bucket_elems[k]}, bucket_flag[k]);
    buckets_[k].pending = buckets_[k].members.size();
  }
  ready_.assign(arrays_.size(), false);
}

BucketedAllreduce::~BucketedAllreduce() {
  for (Bucket& b : buckets_) {
    try {
      b.request.Wait();
    } catch (const std::exception&) {
      // Destructors cannot report; Wait() is where errors surface.
    }
  }
}

std::size_t BucketedAllreduce::bucket_of(std::size_t i) const {
  SHADE_CHECK_LT(i, arrays_.size()) << "shade::dist::BucketedAllreduce: no array " << i;
  return bucket_of_[i];
}

void BucketedAllreduce::StartBucket(Bucket* b) {
  for (std::size_t m = 0; m < b->members.size(); ++m) {
    const NDArray& a = arrays_[b->members[m]];
    b->buffer.narrow(0, b->offsets[m], a.numel()).view(a.sizes()).copy_(a);
  }
  b->request = comm_.IAllreduce(b->buffer, op_);
}

void BucketedAllreduce::MarkReady(std::size_t i) {
  SHADE_CHECK_LT(i, arrays_.size()) << "shade::dist::BucketedAllreduce::MarkReady: no array " << i
                                    << " (there are " << arrays_.size() << ")";
  SHADE_CHECK(!ready_[i]) << "shade::dist::BucketedAllreduce::MarkReady: array " << i
                          << " is already marked ready this round";
  ready_[i] = true;
  Bucket& b = buckets_[bucket_of_[i]];
  if (--b.pending == 0) StartBucket(&b);
  // Without a progress thread MPI advances earlier buckets only inside MPI calls.
  for (Bucket& other : buckets_) other.request.Test();
}

void BucketedAllreduce::Wait() {
  for (std::size_t i = 0; i < arrays_.size(); ++i) {
    if (!ready_[i]) MarkReady(i);
  }
  for (Bucket& b : buckets_) {
    b.request.Wait();
    for (std::size_t m = 0; m < b.members.size(); ++m) {
      const NDArray& a = arrays_[b.members[m]];
      a.copy_(b.buffer.narrow(0, b.offsets[m], a.numel()).view(a.sizes()));
    }
    b.pending = b.members.size();
  }
  ready_.assign(arrays_.size(), false);
}

}  // namespace dist
}  // namespace shade
