/*!
 * \file caffe2.h
 * \brief Caffe2 source compatibility: `caffe2::Tensor` (the 2018 CPU Tensor API), TIndex,
 *  TypeMeta, CPUContext, the CAFFE_ENFORCE family and a minimal operator layer (Workspace,
 *  OperatorDef, Operator<Context>, REGISTER_CPU_OPERATOR) so that a Caffe2 CPU operator body
 *  builds unchanged.
 *
 * `caffe2::Tensor` is a handle on a shade::NDArray (copying a Tensor shares the impl, as in
 * Caffe2), so the lifecycle is NDArray's: lazy Resize, amortised Extend, ShrinkTo without
 * reallocation, ShareData, ShareExternalPointer, the keep-on-shrink flags.
 *
 * Deliberate differences: failed enforcements throw shade::Error (`caffe2::EnforceNotMet`
 * names it) with Caffe2's "[enforce fail at file:line] condition. message" text; a tensor
 * built without dims is a lazily allocated scalar (size() 1, where Caffe2 reports -1 until
 * the first Resize); type names are shade's ("float32", Caffe2: "float"); only the CPU
 * device exists.
 */
#ifndef SHADE_COMPAT_CAFFE2_H_
#define SHADE_COMPAT_CAFFE2_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shade/base/device.h"
#include "shade/base/error.h"
#include "shade/base/type_meta.h"
#include "shade/memory/alloc.h"
#include "shade/ndarray/ndarray.h"

namespace caffe2 {

/*! \brief Caffe2's index type (int64). */
using TIndex = std::int64_t;
/*! \brief Caffe2's element type descriptor (shade's TypeMeta has the same members). */
using TypeMeta = shade::TypeMeta;
/*! \brief What failed enforcements throw. */
using EnforceNotMet = shade::Error;

/*! \brief Caffe2's device types; only CPU has an allocator here. */
enum DeviceType : int { CPU = 0, CUDA = 1 };

/*! \brief Keep memory when a Resize shrinks (the caffe2_keep_on_shrink flag). */
inline void SetKeepOnShrink(bool keep) {
  shade::NDArray::SetKeepOnShrink(keep);
}
/*! \brief Most unused bytes a shrinking Resize may keep (caffe2_max_keep_on_shrink_memory). */
inline void SetMaxKeepOnShrinkMemory(std::int64_t bytes) {
  shade::NDArray::SetMaxKeepOnShrinkMemory(bytes);
}

namespace flags_detail {
/*!
 * \brief A Caffe2 flag spelled as a variable: assigning it calls the setter above, reading it
 *  reads the library's setting, so `caffe2::FLAGS_caffe2_keep_on_shrink = false;` and the setter
 *  functions change the same state (NDArray's Resize reads it).
 */
template <typename T, void (*Set)(T), T (*Get)()>
class Flag {
 public:
  /*! \brief Sets the flag (the setter's checks apply: a negative byte bound throws). */
  Flag& operator=(T value) {
    Set(value);
    return *this;
  }
  /*! \brief The current value. */
  operator T() const { return Get(); }  // NOLINT(google-explicit-constructor): a flag reads as T
};
/*! \brief SetMaxKeepOnShrinkMemory's signature as the flag's setter. */
inline void SetMaxKeepBytes(std::int64_t bytes) {
  shade::NDArray::SetMaxKeepOnShrinkMemory(bytes);
}
}  // namespace flags_detail

/*! \brief Caffe2's `FLAGS_caffe2_keep_on_shrink` (default true), assignable as in Caffe2. */
inline flags_detail::Flag<bool, &SetKeepOnShrink, &shade::NDArray::KeepOnShrink>
    FLAGS_caffe2_keep_on_shrink;
/*! \brief Caffe2's `FLAGS_caffe2_max_keep_on_shrink_memory` (bytes), assignable as in Caffe2. */
inline flags_detail::Flag<std::int64_t, &flags_detail::SetMaxKeepBytes,
                          &shade::NDArray::MaxKeepOnShrinkMemory>
    FLAGS_caffe2_max_keep_on_shrink_memory;

namespace enforce_detail {
/*! \brief Concatenates the streamed arguments (c10::str / MakeString). */
template <typename... Args>
std::string MakeString(const Args&... args) {
  std::ostringstream os;
  if constexpr (sizeof...(Args) > 0) (os << ... << args);
  return os.str();
}
/*! \brief Throws Caffe2's enforce message as shade::Error. */
[[noreturn]] inline void EnforceFail(const char* file, int line, const char* condition,
                                     const std::string& values, const std::string& msg) {
  std::ostringstream os;
  os << "[enforce fail at " << shade::detail::RelativeSourcePath(file) << ':' << line << "] "
     << condition << ". " << values;
  if (!values.empty() && !msg.empty()) os << ". ";
  os << msg;
  throw shade::Error(os.str());
}
}  // namespace enforce_detail

}  // namespace caffe2

/*! \brief Throws shade::Error when `condition` is false; the extra arguments are streamed. */
#define CAFFE_ENFORCE(condition, ...)                                                           \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      ::caffe2::enforce_detail::EnforceFail(__FILE__, __LINE__, #condition, "",                 \
                                            ::caffe2::enforce_detail::MakeString(__VA_ARGS__)); \
    }                                                                                           \
  } while (0)
/*! \brief CAFFE_ENFORCE (Caffe2's variant also names the caller object). */
#define CAFFE_ENFORCE_WITH_CALLER(condition, ...) CAFFE_ENFORCE(condition, __VA_ARGS__)
/*! \brief Throws shade::Error with the streamed arguments. */
#define CAFFE_THROW(...)                                                                       \
  throw ::shade::Error(::caffe2::enforce_detail::MakeString(                                   \
      "[enforce fail at ", ::shade::detail::RelativeSourcePath(__FILE__), ':', __LINE__, "] ", \
      __VA_ARGS__))
/// Comparison enforcements (internal): throws shade::Error when `x op y` fails, the message
/// showing both values ("3 vs 4") and the extra arguments.
#define CAFFE_ENFORCE_OP_(x, y, op, ...)                                                    \
  do {                                                                                      \
    const auto& caffe_enforce_x_ = (x);                                                     \
    const auto& caffe_enforce_y_ = (y);                                                     \
    if (!(caffe_enforce_x_ op caffe_enforce_y_)) {                                          \
      ::caffe2::enforce_detail::EnforceFail(                                                \
          __FILE__, __LINE__, #x " " #op " " #y,                                            \
          ::caffe2::enforce_detail::MakeString(caffe_enforce_x_, " vs ", caffe_enforce_y_), \
          ::caffe2::enforce_detail::MakeString(__VA_ARGS__));                               \
    }                                                                                       \
  } while (0)
/*! \brief Enforces x == y. */
#define CAFFE_ENFORCE_EQ(x, y, ...) CAFFE_ENFORCE_OP_(x, y, ==, __VA_ARGS__)
/*! \brief Enforces x != y. */
#define CAFFE_ENFORCE_NE(x, y, ...) CAFFE_ENFORCE_OP_(x, y, !=, __VA_ARGS__)
/*! \brief Enforces x < y. */
#define CAFFE_ENFORCE_LT(x, y, ...) CAFFE_ENFORCE_OP_(x, y, <, __VA_ARGS__)
/*! \brief Enforces x <= y. */
#define CAFFE_ENFORCE_LE(x, y, ...) CAFFE_ENFORCE_OP_(x, y, <=, __VA_ARGS__)
/*! \brief Enforces x > y. */
#define CAFFE_ENFORCE_GT(x, y, ...) CAFFE_ENFORCE_OP_(x, y, >, __VA_ARGS__)
/*! \brief Enforces x >= y. */
#define CAFFE_ENFORCE_GE(x, y, ...) CAFFE_ENFORCE_OP_(x, y, >=, __VA_ARGS__)
/*! \brief CAFFE_ENFORCE_EQ (caffe2's _WITH_CALLER form; no caller is recorded). */
#define CAFFE_ENFORCE_EQ_WITH_CALLER(x, y, ...) CAFFE_ENFORCE_EQ(x, y, __VA_ARGS__)
/*! \brief CAFFE_ENFORCE_NE (caffe2's _WITH_CALLER form; no caller is recorded). */
#define CAFFE_ENFORCE_NE_WITH_CALLER(x, y, ...) CAFFE_ENFORCE_NE(x, y, __VA_ARGS__)
/*! \brief CAFFE_ENFORCE_LT (caffe2's _WITH_CALLER form; no caller is recorded). */
#define CAFFE_ENFORCE_LT_WITH_CALLER(x, y, ...) CAFFE_ENFORCE_LT(x, y, __VA_ARGS__)
/*! \brief CAFFE_ENFORCE_LE (caffe2's _WITH_CALLER form; no caller is recorded). */
#define CAFFE_ENFORCE_LE_WITH_CALLER(x, y, ...) CAFFE_ENFORCE_LE(x, y, __VA_ARGS__)
/*! \brief CAFFE_ENFORCE_GT (caffe2's _WITH_CALLER form; no caller is recorded). */
#define CAFFE_ENFORCE_GT_WITH_CALLER(x, y, ...) CAFFE_ENFORCE_GT(x, y, __VA_ARGS__)
/*! \brief CAFFE_ENFORCE_GE (caffe2's _WITH_CALLER form; no caller is recorded). */
#define CAFFE_ENFORCE_GE_WITH_CALLER(x, y, ...) CAFFE_ENFORCE_GE(x, y, __VA_ARGS__)

namespace caffe2 {

/*! \brief The device context interface Extend and CopyFrom take. */
class BaseContext {
 public:
  virtual ~BaseContext() = default;
  /*! \brief Copies n items of type `meta` (non-trivial types by assignment). */
  virtual void CopyItemsSameDevice(const TypeMeta& meta, std::size_t n, const void* src,
                                   void* dst) = 0;
  /*! \brief The context's device. */
  virtual DeviceType device_type() const = 0;
};

/*! \brief Caffe2's CPUContext: host copies and allocation. */
class CPUContext final : public BaseContext {
 public:
  CPUContext() = default;
  /*! \brief Caffe2 builds contexts from a DeviceOption; the CPU has nothing to configure. */
  template <typename Option>
  explicit CPUContext(const Option&) {}
  /*! \brief Copies n items of `meta` (memcpy for trivial types). */
  void CopyItemsSameDevice(const TypeMeta& meta, std::size_t n, const void* src,
                           void* dst) override {
    if (n == 0 || src == dst) return;
    CAFFE_ENFORCE(src != nullptr && dst != nullptr, "CopyItemsSameDevice: null pointer for ", n,
                  " items");
    meta.CopyItems(src, dst, n);
  }
  /*! \brief Copies `nbytes` bytes. */
  void CopyBytesSameDevice(std::size_t nbytes, const void* src, void* dst) {
    if (nbytes > 0) std::memcpy(dst, src, nbytes);
  }
  /*! \brief Copies n elements of T. */
  template <typename T, class SrcContext = CPUContext, class DstContext = CPUContext>
  void Copy(std::size_t n, const T* src, T* dst) {
    CopyItemsSameDevice(TypeMeta::Make<T>(), n, src, dst);
  }
  /*! \brief CPU work is synchronous: nothing to wait for. */
  void FinishDeviceComputation() {}
  /*! \brief Nothing to switch on the CPU. */
  void SwitchToDevice(int = 0) {}
  /*! \brief CPU. */
  DeviceType device_type() const override { return CPU; }
  /*! \brief CPU. */
  static constexpr DeviceType GetDeviceType() { return CPU; }
  /*! \brief 64-byte aligned host memory and its deleter. */
  static std::pair<void*, void (*)(void*)> New(std::size_t nbytes) {
    return {nbytes ? shade::AlignedAlloc(nbytes) : nullptr, &shade::AlignedFree};
  }
};

/*! \brief Caffe2's Tensor: a handle on an NDArray (copies share it). */
class Tensor {
 public:
  /*! \brief Undefined tensor (`bool(t)` is false). */
  Tensor() = default;
  /*! \brief An empty CPU tensor (a scalar shape until the first Resize). */
  explicit Tensor(DeviceType type) : array_(shade::IndexSpan(), DevMask(type)) {}
  /*! \brief Sizes `dims`, memory allocated at the first mutable_data. */
  Tensor(const std::vector<TIndex>& dims, DeviceType type) : array_(dims, DevMask(type)) {}
  /*! \brief Sizes `dims` given as int. */
  Tensor(const std::vector<int>& dims, DeviceType type)
      : array_(std::vector<TIndex>(dims.begin(), dims.end()), DevMask(type)) {}
  /*! \brief A deep copy of `src` on `type`. */
  Tensor(const Tensor& src, DeviceType type) : Tensor(type) { CopyFrom(src); }
  /*! \brief A scalar tensor holding `value`. */
  template <typename T, typename = std::enable_if_t<std::is_scalar<T>::value>>
  Tensor(const T& value, BaseContext* context) : Tensor(context ? context->device_type() : CPU) {
    *mutable_data<T>() = value;
  }
  /*! \brief Wraps an NDArray (shares it). */
  explicit Tensor(shade::NDArray array) : array_(std::move(array)) {}

  /*! \brief True when the tensor is defined. */
  explicit operator bool() const { return array_.defined(); }
  /*! \brief The NDArray behind the tensor. */
  const shade::NDArray& array() const { return array_; }

  /*! \brief Device. */
  DeviceType GetDeviceType() const {
    return array_.dev_mask() == shade::cpu::kDevMask ? CPU : CUDA;
  }
  /*!
   * \brief Sizes, as a reference like Caffe2's (so `X.dims().begin()` pairs from two calls
   *  stay valid): a per-handle copy, rewritten only when the sizes changed.
   */
  const std::vector<TIndex>& dims() const {
    if (!(shade::IndexSpan(dims_cache_) == array_.sizes())) dims_cache_ = array_.sizes().vec();
    return dims_cache_;
  }
  /*! \brief Sizes (LibTorch's name). */
  const std::vector<TIndex>& sizes() const { return dims(); }
  /*! \brief Number of elements. */
  TIndex size() const { return array_.numel(); }
  /*! \brief Number of elements. */
  TIndex numel() const { return array_.numel(); }
  /*! \brief Rank. */
  int ndim() const { return array_.ndim(); }
  /*! \brief Rank. */
  int dim() const { return array_.ndim(); }
  /*! \brief Size of dimension i (checked). */
  TIndex dim(int i) const {
    CAFFE_ENFORCE_LT_WITH_CALLER(i, ndim(), "Exceeding ndim limit");
    CAFFE_ENFORCE_GE_WITH_CALLER(i, 0, "Cannot have negative dimension index");
    return array_.size(i);
  }
  /*! \brief Size of dimension i as int (throws when it does not fit). */
  int dim32(int i) const {
    const TIndex d = dim(i);
    CAFFE_ENFORCE_LT_WITH_CALLER(d, std::numeric_limits<int>::max());
    return static_cast<int>(d);
  }
  /*! \brief Product of sizes from dimension k on. */
  TIndex size_from_dim(int k) const { return size_between_dim_(k, ndim()); }
  /*! \brief Product of sizes before dimension k. */
  TIndex size_to_dim(int k) const { return size_between_dim_(0, k); }
  /*! \brief Product of sizes strictly between dimensions k and l. */
  TIndex size_between_dim(int k, int l) const { return size_between_dim_(k + 1, l); }
  /*! \brief Axis in [0, ndim) from one in [-ndim, ndim). */
  int canonical_axis_index(int axis_index) const {
    CAFFE_ENFORCE_GE_WITH_CALLER(axis_index, -ndim());
    CAFFE_ENFORCE_LT_WITH_CALLER(axis_index, ndim());
    return axis_index < 0 ? axis_index + ndim() : axis_index;
  }
  /*! \brief Element type. */
  TypeMeta meta() const { return array_.dtype(); }
  /*! \brief Element type (LibTorch's name). */
  TypeMeta dtype() const { return array_.dtype(); }
  /*! \brief True when the element type is T. */
  template <typename T>
  bool IsType() const {
    return array_.IsType<T>();
  }
  /*! \brief Bytes per element. */
  std::size_t itemsize() const { return array_.itemsize(); }
  /*! \brief numel * itemsize. */
  std::size_t nbytes() const { return array_.nbytes(); }
  /*! \brief Bytes the storage holds. */
  std::size_t capacity_nbytes() const { return array_.capacity_nbytes(); }

  /*! \brief Read-only untyped data (must be allocated unless empty). */
  const void* raw_data() const { return array_.raw_data(); }
  /*! \brief Read-only typed data (Caffe2's type and allocation checks). */
  template <typename T>
  const T* data() const {
    return array_.data<T>();
  }
  /*! \brief Writable memory of type `meta`, allocated or re-typed as Caffe2 does. */
  void* raw_mutable_data(const TypeMeta& meta) { return array_.raw_mutable_data(meta); }
  /*! \brief raw_mutable_data with the current type. */
  void* raw_mutable_data() { return array_.raw_mutable_data(); }
  /*! \brief Writable typed memory. */
  template <typename T>
  T* mutable_data() {
    return array_.mutable_data<T>();
  }

  /*! \brief Resize(d0, d1, ...) or Resize(vector): lazy, frees per the keep-on-shrink flags. */
  template <typename... Ts>
  void Resize(Ts... dims) {
    array_.Resize(dims...);
  }
  /*! \brief Resize to a vector of sizes. */
  void Resize(const std::vector<TIndex>& dims) { array_.Resize(dims); }
  /*! \brief Resize to a vector of int sizes. */
  void Resize(const std::vector<int>& dims) {
    array_.Resize(std::vector<TIndex>(dims.begin(), dims.end()));
  }
  /*! \brief Resize to src's sizes. */
  void ResizeLike(const Tensor& src) {
    if (src.array_.is_same(array_)) return;
    array_.Resize(src.array_.sizes());
  }
  /*! \brief New sizes, same numel, storage untouched. */
  void Reshape(const std::vector<TIndex>& dims) { array_.Reshape(dims); }
  /*! \brief Reshape with int sizes. */
  void Reshape(const std::vector<int>& dims) {
    array_.Reshape(std::vector<TIndex>(dims.begin(), dims.end()));
  }
  /*!
   * \brief Grows the outer dimension by `num` keeping the data (amortised O(1)); `context`
   *  must be given when the memory has to grow (Caffe2's check).
   */
  void Extend(TIndex num, float growthPct, BaseContext* context) {
    if (context == nullptr && array_.data_ptr() != nullptr && ndim() >= 1 && num > 0) {
      const TIndex inner = array_.numel() / std::max<TIndex>(array_.size(0), 1);
      const bool grows =
          array_.size(0) == 0 ||
          static_cast<std::size_t>((array_.size(0) + num) * inner) * itemsize() > capacity_nbytes();
      CAFFE_ENFORCE(!grows, "Context must be provided to Extend the tensor");
    }
    array_.Extend(num, growthPct);
  }
  /*! \brief Shrinks the outer dimension without reallocating. */
  void ShrinkTo(TIndex outer_dim) { array_.ShrinkTo(outer_dim); }
  /*! \brief Capacity for `outer_dim` rows. */
  void ReserveSpace(const TIndex& outer_dim) { array_.ReserveSpace(outer_dim); }
  /*! \brief Shares src's storage (numel must match). */
  void ShareData(const Tensor& src) { array_.ShareData(src.array_); }
  /*! \brief Uses external typed memory; a null deleter borrows it. */
  template <typename T, typename Deleter = shade::MemoryDeleter>
  void ShareExternalPointer(T* src, std::size_t capacity = 0, Deleter d = nullptr) {
    array_.ShareExternalPointer(src, TypeMeta::Make<T>(), capacity, std::move(d));
  }
  /*! \brief Uses external memory of type `meta`. */
  template <typename Deleter = shade::MemoryDeleter>
  void ShareExternalPointer(void* src, const TypeMeta& meta, std::size_t capacity = 0,
                            Deleter d = nullptr) {
    array_.ShareExternalPointer(src, meta, capacity, std::move(d));
  }
  /*! \brief Resizes to src and copies its elements (the context is not needed on the CPU). */
  void CopyFrom(const Tensor& src, BaseContext* context = nullptr) {
    static_cast<void>(context);
    if (src.array_.is_same(array_)) return;
    array_.CopyFrom(src.array_);
  }
  /*! \brief Releases the memory. */
  void FreeMemory() { array_.FreeMemory(); }
  /*! \brief Swaps two handles. */
  void swap(Tensor& other) noexcept {
    std::swap(array_, other.array_);
    std::swap(dims_cache_, other.dims_cache_);
  }
  /*! \brief A deep copy. */
  Tensor Clone() const { return Tensor(array_.Clone()); }
  /*! \brief "A Tensor of item size 4 and type float and dimension (2,3,)." */
  std::string DebugString() const {
    std::ostringstream os;
    os << "A Tensor of item size " << itemsize() << " and type " << meta().name()
       << " and dimension (";
    for (TIndex d : dims()) os << d << ',';
    os << ").";
    return os.str();
  }

 private:
  static int DevMask(DeviceType t) {
    return t == CPU ? shade::cpu::kDevMask : shade::gpu::kDevMask;
  }
  TIndex size_between_dim_(int begin, int end) const {
    CAFFE_ENFORCE(begin >= 0 && end <= ndim() && begin <= end + 1, "dimension range [", begin, ", ",
                  end, ") out of a rank-", ndim(), " tensor");
    TIndex r = 1;
    for (int i = begin; i < end; ++i) r *= array_.size(i);
    return r;
  }
  shade::NDArray array_;
  mutable std::vector<TIndex> dims_cache_;
};

/*! \brief Caffe2's TensorCPU. */
using TensorCPU = Tensor;

// ------------------------------------------------------------------------------ operators
/*! \brief One operator argument (the protobuf Argument's setters and getters). */
struct Argument {
  /*! \brief Sets the name. */
  void set_name(const std::string& n) { name_ = n; }
  /*! \brief Sets an integer value. */
  void set_i(std::int64_t v) { i_ = v, has_i_ = true; }
  /*! \brief Sets a float value. */
  void set_f(float v) { f_ = v, has_f_ = true; }
  /*! \brief Sets a string value. */
  void set_s(const std::string& v) { s_ = v, has_s_ = true; }
  /*! \brief Appends to the integer list. */
  void add_ints(std::int64_t v) { ints_.push_back(v); }
  /*! \brief Appends to the float list. */
  void add_floats(float v) { floats_.push_back(v); }
  /*! \brief The name. */
  const std::string& name() const { return name_; }

  std::string name_;                ///< The argument's name.
  std::string s_;                   ///< The string value (valid when has_s_).
  std::int64_t i_ = 0;              ///< The integer value (valid when has_i_).
  float f_ = 0;                     ///< The float value (valid when has_f_).
  bool has_i_ = false;              ///< Whether an integer value was set.
  bool has_f_ = false;              ///< Whether a float value was set.
  bool has_s_ = false;              ///< Whether a string value was set.
  std::vector<std::int64_t> ints_;  ///< The integer list.
  std::vector<float> floats_;       ///< The float list.
};

/*! \brief The protobuf OperatorDef's fields an operator reads. */
struct OperatorDef {
  /*! \brief Sets the operator type (the registry key). */
  void set_type(const std::string& t) { type_ = t; }
  /*! \brief The operator type. */
  const std::string& type() const { return type_; }
  /*! \brief Appends an input blob name. */
  void add_input(const std::string& n) { input_.push_back(n); }
  /*! \brief Appends an output blob name. */
  void add_output(const std::string& n) { output_.push_back(n); }
  /*! \brief Appends an argument and returns it for the setters. */
  Argument* add_arg() {
    arg_.emplace_back();
    return &arg_.back();
  }
  /*! \brief Input i's blob name. */
  const std::string& input(int i) const { return input_.at(static_cast<std::size_t>(i)); }
  /*! \brief Output i's blob name. */
  const std::string& output(int i) const { return output_.at(static_cast<std::size_t>(i)); }
  /*! \brief Number of inputs. */
  int input_size() const { return static_cast<int>(input_.size()); }
  /*! \brief Number of outputs. */
  int output_size() const { return static_cast<int>(output_.size()); }
  /*! \brief The arguments. */
  const std::vector<Argument>& arg() const { return arg_; }

 private:
  std::string type_;
  std::vector<std::string> input_, output_;
  std::vector<Argument> arg_;
};

/*! \brief A named slot holding a Tensor (Caffe2's Blob, for tensors only). */
class Blob {
 public:
  /*! \brief The tensor, created on first use. */
  template <typename T>
  T* GetMutable() {
    static_assert(std::is_same<T, Tensor>::value, "this Blob holds Tensors only");
    if (!tensor_) tensor_ = Tensor(CPU);
    return &tensor_;
  }
  /*! \brief The tensor; throws when the blob holds none yet. */
  template <typename T>
  const T& Get() const {
    static_assert(std::is_same<T, Tensor>::value, "this Blob holds Tensors only");
    CAFFE_ENFORCE(static_cast<bool>(tensor_), "the blob holds no Tensor yet");
    return tensor_;
  }
  /*! \brief Caffe2 2018's GetMutableTensor(device). */
  Tensor* GetMutableTensor(DeviceType) { return GetMutable<Tensor>(); }
  /*! \brief True when it holds a T. */
  template <typename T>
  bool IsType() const {
    return std::is_same<T, Tensor>::value && static_cast<bool>(tensor_);
  }

 private:
  Tensor tensor_;
};

/*! \brief Named blobs (Caffe2's Workspace). */
class Workspace {
 public:
  /*! \brief The blob called `name`, created if new. */
  Blob* CreateBlob(const std::string& name) { return &blobs_[name]; }
  /*! \brief The blob called `name`, or null. */
  Blob* GetBlob(const std::string& name) {
    auto it = blobs_.find(name);
    return it == blobs_.end() ? nullptr : &it->second;
  }
  /*! \brief True when a blob called `name` exists. */
  bool HasBlob(const std::string& name) const { return blobs_.count(name) != 0; }

 private:
  std::map<std::string, Blob> blobs_;
};

/*! \brief The untyped part of an operator: inputs, outputs, arguments. */
class OperatorBase {
 public:
  /*! \brief Binds the def's input and output blobs in `ws` (inputs must exist). */
  OperatorBase(const OperatorDef& def, Workspace* ws) : def_(def) {
    CAFFE_ENFORCE(ws != nullptr, "an operator needs a workspace");
    for (int i = 0; i < def.input_size(); ++i) {
      Blob* b = ws->GetBlob(def.input(i));
      CAFFE_ENFORCE(b != nullptr, "Encountered a non-existing input blob: ", def.input(i));
      inputs_.push_back(b);
    }
    for (int i = 0; i < def.output_size(); ++i) outputs_.push_back(ws->CreateBlob(def.output(i)));
  }
  virtual ~OperatorBase() = default;
  /*! \brief Runs the operator; false signals failure. */
  virtual bool Run() = 0;

  /*! \brief Input idx as T (a Tensor). */
  template <typename T>
  const T& Input(int idx) {
    return inputs_.at(static_cast<std::size_t>(idx))->Get<T>();
  }
  /*! \brief Output idx as T (a Tensor). */
  template <typename T>
  T* Output(int idx) {
    return outputs_.at(static_cast<std::size_t>(idx))->GetMutable<T>();
  }
  /*! \brief Number of inputs. */
  int InputSize() const { return static_cast<int>(inputs_.size()); }
  /*! \brief Number of outputs. */
  int OutputSize() const { return static_cast<int>(outputs_.size()); }
  /*! \brief True when the def has the argument. */
  bool HasArgument(const std::string& name) const { return Find(name) != nullptr; }
  /*! \brief A scalar argument, or `default_value` when absent. */
  template <typename T>
  T GetSingleArgument(const std::string& name, const T& default_value) const {
    const Argument* a = Find(name);
    if (!a) return default_value;
    if constexpr (std::is_same<T, std::string>::value) {
      CAFFE_ENFORCE(a->has_s_, "Argument ", name, " is not a string");
      return a->s_;
    } else if constexpr (std::is_floating_point<T>::value) {
      CAFFE_ENFORCE(a->has_f_ || a->has_i_, "Argument ", name, " is not a number");
      return a->has_f_ ? static_cast<T>(a->f_) : static_cast<T>(a->i_);
    } else {
      CAFFE_ENFORCE(a->has_i_, "Argument ", name, " is not an integer");
      return static_cast<T>(a->i_);
    }
  }
  /*! \brief A list argument (empty when absent). */
  template <typename T>
  std::vector<T> GetRepeatedArgument(const std::string& name) const {
    const Argument* a = Find(name);
    std::vector<T> out;
    if (!a) return out;
    if constexpr (std::is_floating_point<T>::value) {
      for (float v : a->floats_) out.push_back(static_cast<T>(v));
    } else {
      for (std::int64_t v : a->ints_) out.push_back(static_cast<T>(v));
    }
    return out;
  }
  /*! \brief The def. */
  const OperatorDef& debug_def() const { return def_; }

 private:
  const Argument* Find(const std::string& name) const {
    for (const Argument& a : def_.arg()) {
      if (a.name() == name) return &a;
    }
    return nullptr;
  }
  OperatorDef def_;
  std::vector<Blob*> inputs_, outputs_;
};

/*! \brief An operator on a device context: Run() calls RunOnDevice(). */
template <class Context>
class Operator : public OperatorBase {
 public:
  /*! \brief Binds blobs; builds the context. */
  Operator(const OperatorDef& def, Workspace* ws) : OperatorBase(def, ws) {}
  /*! \brief Input idx as a Tensor. */
  const Tensor& Input(int idx) { return OperatorBase::template Input<Tensor>(idx); }
  /*! \brief Output idx as a Tensor. */
  Tensor* Output(int idx) { return OperatorBase::template Output<Tensor>(idx); }
  /*! \brief Runs RunOnDevice, then waits for the device. */
  bool Run() final {
    context_.SwitchToDevice(0);
    const bool ok = RunOnDevice();
    if (ok) context_.FinishDeviceComputation();
    return ok;
  }
  /*! \brief The operator's body. */
  virtual bool RunOnDevice() = 0;

 protected:
  /*! \brief The device context. */
  Context context_;
};

/*! \brief Factories of registered CPU operators by type name. */
inline std::map<std::string,
                std::function<std::unique_ptr<OperatorBase>(const OperatorDef&, Workspace*)>>&
CPUOperatorRegistry() {
  static std::map<std::string,
                  std::function<std::unique_ptr<OperatorBase>(const OperatorDef&, Workspace*)>>
      registry;
  return registry;
}

/*! \brief Builds the registered operator for def.type(); throws for an unknown type. */
inline std::unique_ptr<OperatorBase> CreateOperator(const OperatorDef& def, Workspace* ws) {
  auto it = CPUOperatorRegistry().find(def.type());
  CAFFE_ENFORCE(it != CPUOperatorRegistry().end(), "Cannot create operator of type '", def.type(),
                "' on the device 'CPU'");
  return it->second(def, ws);
}

namespace registry_detail {
/*! \brief Registers a factory at static-initialisation time. */
struct Registerer {
  /*! \brief Adds factory `f` to CPUOperatorRegistry() under `name` (a later one replaces it). */
  template <typename Factory>
  Registerer(const char* name, Factory f) {
    CPUOperatorRegistry()[name] = std::move(f);
  }
};
}  // namespace registry_detail

}  // namespace caffe2

/*! \brief Brings OperatorBase's helpers into a templated operator. */
#define USE_OPERATOR_BASE_FUNCTIONS        \
  using OperatorBase::HasArgument;         \
  using OperatorBase::GetSingleArgument;   \
  using OperatorBase::GetRepeatedArgument; \
  using OperatorBase::InputSize;           \
  using OperatorBase::OutputSize
/*! \brief Brings Operator<context>'s helpers into a templated operator. */
#define USE_OPERATOR_FUNCTIONS(context) \
  USE_OPERATOR_BASE_FUNCTIONS;          \
  using Operator<context>::context_;    \
  using Operator<context>::Input;       \
  using Operator<context>::Output
/*! \brief USE_OPERATOR_FUNCTIONS for an operator templated on `Context`. */
#define USE_OPERATOR_CONTEXT_FUNCTIONS USE_OPERATOR_FUNCTIONS(Context)
/*! \brief The (def, ws) constructor and a destructor. */
#define USE_SIMPLE_CTOR_DTOR(name)                                         \
  name(const ::caffe2::OperatorDef& operator_def, ::caffe2::Workspace* ws) \
      : Operator<Context>(operator_def, ws) {}                             \
  virtual ~name() noexcept {}
/*! \brief Registers `...` (an operator class) as CPU operator `name`. */
#define REGISTER_CPU_OPERATOR(name, ...)                                              \
  static ::caffe2::registry_detail::Registerer caffe2_cpu_operator_registerer_##name( \
      #name, [](const ::caffe2::OperatorDef& def, ::caffe2::Workspace* ws) {          \
        return std::unique_ptr<::caffe2::OperatorBase>(new __VA_ARGS__(def, ws));     \
      })

#endif  // SHADE_COMPAT_CAFFE2_H_
