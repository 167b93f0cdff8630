/*!
 * \file mshadow_packet.h
 * \brief mshadow's SSE packet layer (packet-inl.h, packet/plain-inl.h, packet/sse-inl.h):
 *  `mshadow::packet::Packet<DType, Arch>` for kPlain (one element) and, on SSE2 machines, kSSE2
 *  (four floats / two doubles in an __m128 / __m128d), its operators, PacketOp, Saver, the
 *  aligned-allocation helpers, and `mshadow::expr::PacketPlan`, MakePacketPlan, PacketCheck,
 *  PacketAlignCheck and MapPacketPlan over shade's expression nodes.
 *
 * Shade's own engine vectorises with shade/packet/packet.h; these are for ported code that
 * names mshadow's packets. MSHADOW_USE_SSE stays 0 (shade's engine does not use this layer), so
 * MSHADOW_DEFAULT_PACKET is kPlain as in mshadow built that way; kSSE2 packets still exist.
 * Difference: mshadow's kPlain Store writes nothing (its body is empty); this one stores.
 * Included by shade/compat/mshadow.h; not meant to be included on its own.
 */
#ifndef SHADE_COMPAT_MSHADOW_PACKET_H_
#define SHADE_COMPAT_MSHADOW_PACKET_H_

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "shade/base/checked.h"
#include "shade/base/error.h"
#include "shade/base/index.h"
#include "shade/expr/expression.h"
#include "shade/functor/op.h"
#include "shade/functor/sv.h"
#include "shade/memory/alloc.h"
#include "shade/tensor/tensor.h"

namespace mshadow {
/*! \brief mshadow's packet namespace (distinct from shade::packet, shade's own layer). */
namespace packet {
/*! \brief The instruction sets a Packet can use. */
enum PacketArch {
  kPlain,  //!< one element, plain C++
  kSSE2,   //!< 128-bit SSE2 registers
};

/*! \brief The packet architecture Packet<DType> defaults to (kPlain: MSHADOW_USE_SSE is 0). */
#define MSHADOW_DEFAULT_PACKET ::mshadow::packet::kPlain

/*! \brief A group of DType values processed together; specialised per architecture. */
template <typename DType, PacketArch Arch = MSHADOW_DEFAULT_PACKET>
struct Packet;

/*! \brief log2 of the alignment, in bytes, packets need: 4 (16 bytes) for every Arch. */
template <PacketArch Arch>
struct AlignBytes {
  /*! \brief The exponent. */
  static constexpr ::shade::index_t value = 4;
};

/*!
 * \brief Allocates num_line rows of lspace bytes, each row padded to a multiple of 16 bytes
 *  (the pitch, stored in *out_pitch) and the block 16-byte aligned: shade's AlignedMallocPitch
 *  at mshadow's packet alignment (so the allocation cap applies). Free with AlignedFree.
 *  Throws shade::Error on overflow or allocation failure (mshadow aborts).
 */
inline void* AlignedMallocPitch(size_t* out_pitch, size_t lspace, size_t num_line) {
  return ::shade::AlignedMallocPitch(out_pitch, lspace, num_line,
                                     size_t{1} << AlignBytes<MSHADOW_DEFAULT_PACKET>::value);
}
/*! \brief Frees memory from AlignedMallocPitch. */
inline void AlignedFree(void* ptr) {
  ::shade::AlignedFree(ptr);
}
/*! \brief True when pitch is a multiple of Arch's alignment. */
template <PacketArch Arch>
inline bool CheckAlign(size_t pitch) {
  const size_t mask = (size_t{1} << AlignBytes<Arch>::value) - 1;
  return !(pitch & mask);
}
/*! \brief True when ptr is aligned for Arch. */
template <PacketArch Arch>
inline bool CheckAlign(void* ptr) {
  return CheckAlign<Arch>(reinterpret_cast<size_t>(ptr));
}
/*! \brief The smallest count >= size whose bytes fill whole 16-byte blocks. */
template <typename DType, PacketArch Arch>
inline ::shade::index_t UpperAlign(::shade::index_t size) {
  const ::shade::index_t align = ::shade::index_t{1} << AlignBytes<MSHADOW_DEFAULT_PACKET>::value;
  const ::shade::index_t fsize = sizeof(DType);
  const ::shade::index_t bytes = ::shade::CheckedMul(size, fsize, "UpperAlign: bytes");
  return ::shade::CheckedAdd(bytes, align - 1, "UpperAlign: bytes") / align * align / fsize;
}
/*! \brief The largest count <= size whose bytes fill whole 16-byte blocks. */
template <typename DType, PacketArch Arch>
inline ::shade::index_t LowerAlign(::shade::index_t size) {
  const ::shade::index_t align = ::shade::index_t{1} << AlignBytes<MSHADOW_DEFAULT_PACKET>::value;
  const ::shade::index_t fsize = sizeof(DType);
  return ::shade::CheckedMul(size, fsize, "LowerAlign: bytes") / align * align / fsize;
}

/*! \brief One element as a packet (mshadow's plain-inl.h). */
template <typename DType>
struct Packet<DType, kPlain> {
 public:
  /*! \brief Elements per packet. */
  static constexpr ::shade::index_t size = 1;
  /*! \brief The element. */
  DType data_;
  /*! \brief Uninitialised lanes, as in mshadow. */
  Packet() {}
  /*! \brief A packet holding data. */
  explicit Packet(DType data) : data_(data) {}
  /*! \brief A packet of s. */
  static Packet Fill(DType s) { return Packet(s); }
  /*! \brief Loads *src. */
  static Packet Load(const DType* src) { return Packet(*src); }
  /*! \brief Loads *src (no alignment needed). */
  static Packet LoadUnAligned(const DType* src) { return Packet(*src); }
  /*! \brief Sets the element to s. */
  Packet& operator=(DType s) {
    data_ = s;
    return *this;
  }
  /*! \brief Writes the element to *dst (mshadow's writes nothing). */
  void Store(DType* dst) const { *dst = data_; }
  /*! \brief The element. */
  DType Sum() const { return data_; }
};
/*! \brief Lanewise sum. */
template <typename DType>
inline Packet<DType, kPlain> operator+(const Packet<DType, kPlain>& lhs,
                                       const Packet<DType, kPlain>& rhs) {
  return Packet<DType, kPlain>(lhs.data_ + rhs.data_);
}
/*! \brief Lanewise difference. */
template <typename DType>
inline Packet<DType, kPlain> operator-(const Packet<DType, kPlain>& lhs,
                                       const Packet<DType, kPlain>& rhs) {
  return Packet<DType, kPlain>(lhs.data_ - rhs.data_);
}
/*! \brief Lanewise product. */
template <typename DType>
inline Packet<DType, kPlain> operator*(const Packet<DType, kPlain>& lhs,
                                       const Packet<DType, kPlain>& rhs) {
  return Packet<DType, kPlain>(lhs.data_ * rhs.data_);
}
/*! \brief Lanewise quotient. */
template <typename DType>
inline Packet<DType, kPlain> operator/(const Packet<DType, kPlain>& lhs,
                                       const Packet<DType, kPlain>& rhs) {
  return Packet<DType, kPlain>(lhs.data_ / rhs.data_);
}

#if defined(__SSE2__)
/*! \brief Four floats in an SSE register. Load and Store need 16-byte aligned addresses. */
template <>
struct Packet<float, kSSE2> {
 public:
  /*! \brief Elements per packet. */
  static constexpr ::shade::index_t size = 4;
  /*! \brief The register. */
  __m128 data_;
  /*! \brief Uninitialised lanes, as in mshadow. */
  Packet() {}
  /*! \brief A packet holding data. */
  explicit Packet(__m128 data) : data_(data) {}
  /*! \brief Four copies of s. */
  static Packet Fill(float s) { return Packet(_mm_set1_ps(s)); }
  /*! \brief Loads src[0..4) (16-byte aligned). */
  static Packet Load(const float* src) { return Packet(_mm_load_ps(src)); }
  /*! \brief Loads src[0..4) (any alignment). */
  static Packet LoadUnAligned(const float* src) { return Packet(_mm_loadu_ps(src)); }
  /*! \brief Sets every lane to s. */
  Packet& operator=(float s) {
    data_ = _mm_set1_ps(s);
    return *this;
  }
  /*! \brief Stores the lanes to dst[0..4) (16-byte aligned). */
  void Store(float* dst) const { _mm_store_ps(dst, data_); }
  /*! \brief (lane0 + lane2) + (lane1 + lane3), mshadow's order. */
  float Sum() const {
    const __m128 pairs = _mm_add_ps(data_, _mm_movehl_ps(data_, data_));
    return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)));
  }
};
/*! \brief Two doubles in an SSE2 register. Load and Store need 16-byte aligned addresses. */
template <>
struct Packet<double, kSSE2> {
  /*! \brief Elements per packet. */
  static constexpr ::shade::index_t size = 2;
  /*! \brief The register. */
  __m128d data_;
  /*! \brief Uninitialised lanes, as in mshadow. */
  Packet() {}
  /*! \brief A packet holding data. */
  explicit Packet(__m128d data) : data_(data) {}
  /*! \brief Two copies of s. */
  static Packet Fill(double s) { return Packet(_mm_set1_pd(s)); }
  /*! \brief Loads src[0..2) (16-byte aligned). */
  static Packet Load(const double* src) { return Packet(_mm_load_pd(src)); }
  /*! \brief Loads src[0..2) (any alignment). */
  static Packet LoadUnAligned(const double* src) { return Packet(_mm_loadu_pd(src)); }
  /*! \brief Sets both lanes to s. */
  Packet& operator=(double s) {
    data_ = _mm_set1_pd(s);
    return *this;
  }
  /*! \brief Stores the lanes to dst[0..2) (16-byte aligned). */
  void Store(double* dst) const { _mm_store_pd(dst, data_); }
  /*! \brief lane0 + lane1. */
  double Sum() const { return _mm_cvtsd_f64(_mm_add_sd(data_, _mm_unpackhi_pd(data_, data_))); }
};
/*! \brief Lanewise sum. */
inline Packet<float, kSSE2> operator+(const Packet<float, kSSE2>& lhs,
                                      const Packet<float, kSSE2>& rhs) {
  return Packet<float, kSSE2>(_mm_add_ps(lhs.data_, rhs.data_));
}
/*! \brief Lanewise sum. */
inline Packet<double, kSSE2> operator+(const Packet<double, kSSE2>& lhs,
                                       const Packet<double, kSSE2>& rhs) {
  return Packet<double, kSSE2>(_mm_add_pd(lhs.data_, rhs.data_));
}
/*! \brief Lanewise difference. */
inline Packet<float, kSSE2> operator-(const Packet<float, kSSE2>& lhs,
                                      const Packet<float, kSSE2>& rhs) {
  return Packet<float, kSSE2>(_mm_sub_ps(lhs.data_, rhs.data_));
}
/*! \brief Lanewise difference. */
inline Packet<double, kSSE2> operator-(const Packet<double, kSSE2>& lhs,
                                       const Packet<double, kSSE2>& rhs) {
  return Packet<double, kSSE2>(_mm_sub_pd(lhs.data_, rhs.data_));
}
/*! \brief Lanewise product. */
inline Packet<float, kSSE2> operator*(const Packet<float, kSSE2>& lhs,
                                      const Packet<float, kSSE2>& rhs) {
  return Packet<float, kSSE2>(_mm_mul_ps(lhs.data_, rhs.data_));
}
/*! \brief Lanewise product. */
inline Packet<double, kSSE2> operator*(const Packet<double, kSSE2>& lhs,
                                       const Packet<double, kSSE2>& rhs) {
  return Packet<double, kSSE2>(_mm_mul_pd(lhs.data_, rhs.data_));
}
/*! \brief Lanewise quotient. */
inline Packet<float, kSSE2> operator/(const Packet<float, kSSE2>& lhs,
                                      const Packet<float, kSSE2>& rhs) {
  return Packet<float, kSSE2>(_mm_div_ps(lhs.data_, rhs.data_));
}
/*! \brief Lanewise quotient. */
inline Packet<double, kSSE2> operator/(const Packet<double, kSSE2>& lhs,
                                       const Packet<double, kSSE2>& rhs) {
  return Packet<double, kSSE2>(_mm_div_pd(lhs.data_, rhs.data_));
}
#endif  // __SSE2__

/*! \brief The packet form of element functor OP: kEnabled only for + - * / and identity. */
template <typename OP, typename DType, PacketArch Arch>
struct PacketOp {
  /*! \brief No packet form. */
  static constexpr bool kEnabled = false;
};
/*! \brief Writes the PacketOp of a binary functor with a packet form: the packets' OPERATOR
 *  (undefined again below). */
#define MSHADOW_COMPAT_PACKET_OP_(FUNCTOR, OPERATOR)                 \
  /*! \brief The packet form of FUNCTOR. */                          \
  template <typename DType, PacketArch Arch>                         \
  struct PacketOp<::shade::op::FUNCTOR, DType, Arch> {               \
    /*! \brief It has one. */                                        \
    static constexpr bool kEnabled = true;                           \
    /*! \brief lhs OPERATOR rhs, lanewise. */                        \
    static Packet<DType, Arch> Map(const Packet<DType, Arch>& lhs,   \
                                   const Packet<DType, Arch>& rhs) { \
      return lhs OPERATOR rhs;                                       \
    }                                                                \
  };
MSHADOW_COMPAT_PACKET_OP_(plus, +)
MSHADOW_COMPAT_PACKET_OP_(minus, -)
MSHADOW_COMPAT_PACKET_OP_(mul, *)
MSHADOW_COMPAT_PACKET_OP_(div, /)
#undef MSHADOW_COMPAT_PACKET_OP_
/*! \brief The packet form of identity. */
template <typename DType, PacketArch Arch>
struct PacketOp<::shade::op::identity, DType, Arch> {
  /*! \brief It has one. */
  static constexpr bool kEnabled = true;
  /*! \brief src itself. */
  static Packet<DType, Arch> Map(const Packet<DType, Arch>& src) { return src; }
};

/*! \brief Saves a packet into dst with saver SV: dst = SV's functor(dst, src). */
template <typename SV, typename TFloat, PacketArch Arch>
struct Saver {
  /*! \brief Loads dst, combines, stores (dst aligned as Load/Store need). */
  static void Save(TFloat* dst, const Packet<TFloat, Arch>& src) {
    const Packet<TFloat, Arch> lhs = Packet<TFloat, Arch>::Load(dst);
    PacketOp<typename SV::OPType, TFloat, Arch>::Map(lhs, src).Store(dst);
  }
};
/*! \brief `=`: stores src. */
template <typename TFloat, PacketArch Arch>
struct Saver<::shade::sv::saveto, TFloat, Arch> {
  /*! \brief Stores src into dst. */
  static void Save(TFloat* dst, const Packet<TFloat, Arch>& src) { src.Store(dst); }
};
}  // namespace packet

namespace expr {
using namespace ::shade::expr;  // NOLINT(build/namespaces): as compat/mshadow.h does
/*! \brief mshadow's name for the architecture type in expr. */
typedef packet::PacketArch PacketArch;
using ::shade::index_t;

/*!
 * \brief The packet plan of an expression: EvalPacket gives the packet at (y, x), Eval one
 *  element. Defined for tensors, scalars and the unary / binary maps, as in mshadow.
 */
template <typename ExpType, typename DType, PacketArch Arch>
class PacketPlan {
 public:
  /*! \brief The packet at (y, x) (declared only: the expression has no packet form). */
  packet::Packet<DType, Arch> EvalPacket(index_t y, index_t x) const;
  /*! \brief The element at (y, x) (declared only). */
  DType Eval(index_t y, index_t x) const;
};
/*! \brief A tensor's packets: aligned loads at row y, column x. */
template <typename Device, int dim, typename DType, PacketArch Arch>
class PacketPlan<::shade::Tensor<Device, dim, DType>, DType, Arch> {
 public:
  /*! \brief Reads t's pointer and stride. */
  explicit PacketPlan(const ::shade::Tensor<Device, dim, DType>& t)
      : dptr_(t.dptr_), stride_(t.stride_) {}
  /*! \brief The packet starting at (y, x). */
  packet::Packet<DType, Arch> EvalPacket(index_t y, index_t x) const {
    return packet::Packet<DType, Arch>::Load(&dptr_[y * stride_ + x]);
  }
  /*! \brief The element at (y, x). */
  DType Eval(index_t y, index_t x) const { return dptr_[y * stride_ + x]; }

 private:
  const DType* dptr_;
  index_t stride_;
};
/*! \brief A scalar's packets: the scalar in every lane. */
template <typename DType, PacketArch Arch>
class PacketPlan<ScalarExp<DType>, DType, Arch> {
 public:
  /*! \brief Holds scalar. */
  explicit PacketPlan(DType scalar) : scalar_(scalar) {}
  /*! \brief The scalar in every lane. */
  packet::Packet<DType, Arch> EvalPacket(index_t /*y*/, index_t /*x*/) const {
    return packet::Packet<DType, Arch>::Fill(scalar_);
  }
  /*! \brief The scalar. */
  DType Eval(index_t /*y*/, index_t /*x*/) const { return scalar_; }

 private:
  DType scalar_;
};
/*! \brief A binary map's packets: PacketOp of its operands' packets. */
template <typename OP, typename TA, typename TB, int etype, typename DType, PacketArch Arch>
class PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch> {
 public:
  /*! \brief The operands' plans. */
  PacketPlan(const PacketPlan<TA, DType, Arch>& lhs, const PacketPlan<TB, DType, Arch>& rhs)
      : lhs_(lhs), rhs_(rhs) {}
  /*! \brief OP on the operands' packets. */
  packet::Packet<DType, Arch> EvalPacket(index_t y, index_t x) const {
    return packet::PacketOp<OP, DType, Arch>::Map(lhs_.EvalPacket(y, x), rhs_.EvalPacket(y, x));
  }
  /*! \brief OP on the operands' elements. */
  DType Eval(index_t y, index_t x) const { return OP::Map(lhs_.Eval(y, x), rhs_.Eval(y, x)); }

 private:
  PacketPlan<TA, DType, Arch> lhs_;
  PacketPlan<TB, DType, Arch> rhs_;
};
/*! \brief A unary map's packets: PacketOp of its operand's packets. */
template <typename OP, typename TA, int etype, typename DType, PacketArch Arch>
class PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch> {
 public:
  /*! \brief The operand's plan. */
  explicit PacketPlan(const PacketPlan<TA, DType, Arch>& src) : src_(src) {}
  /*! \brief OP on the operand's packet. */
  packet::Packet<DType, Arch> EvalPacket(index_t y, index_t x) const {
    return packet::PacketOp<OP, DType, Arch>::Map(src_.EvalPacket(y, x));
  }
  /*! \brief OP on the operand's element. */
  DType Eval(index_t y, index_t x) const { return OP::Map(src_.Eval(y, x)); }

 private:
  PacketPlan<TA, DType, Arch> src_;
};

/*! \brief The plan of a binary map (declared first: the overloads call one another). */
template <PacketArch Arch, typename OP, typename TA, typename TB, typename DType, int etype>
inline PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch> MakePacketPlan(
    const BinaryMapExp<OP, TA, TB, DType, etype>& e);
/*! \brief The plan of a scalar. */
template <PacketArch Arch, typename DType>
inline PacketPlan<ScalarExp<DType>, DType, Arch> MakePacketPlan(const ScalarExp<DType>& e) {
  return PacketPlan<ScalarExp<DType>, DType, Arch>(e.scalar_);
}
/*! \brief The plan of a tensor (or another right-value expression). */
template <PacketArch Arch, typename T, typename DType>
inline PacketPlan<T, DType, Arch> MakePacketPlan(const RValueExp<T, DType>& e) {
  return PacketPlan<T, DType, Arch>(e.self());
}
/*! \brief The plan of an extension node over cpu (as mshadow's overload; none has a plan). */
template <PacketArch Arch, typename T, int dim, typename DType>
inline PacketPlan<T, DType, Arch> MakePacketPlan(
    const MakeTensorExp<T, ::shade::cpu, dim, DType>& e) {
  return PacketPlan<T, DType, Arch>(e.real_self());
}
/*! \brief The plan of a unary map. */
template <PacketArch Arch, typename OP, typename TA, typename DType, int etype>
inline PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch> MakePacketPlan(
    const UnaryMapExp<OP, TA, DType, etype>& e) {
  return PacketPlan<UnaryMapExp<OP, TA, DType, etype>, DType, Arch>(MakePacketPlan<Arch>(e.src_));
}
template <PacketArch Arch, typename OP, typename TA, typename TB, typename DType, int etype>
inline PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch> MakePacketPlan(
    const BinaryMapExp<OP, TA, TB, DType, etype>& e) {
  return PacketPlan<BinaryMapExp<OP, TA, TB, DType, etype>, DType, Arch>(
      MakePacketPlan<Arch>(e.lhs_), MakePacketPlan<Arch>(e.rhs_));
}

/*! \brief Whether expression E has a packet form for Arch (kPass). */
template <typename E, PacketArch Arch>
struct PacketCheck {
  /*! \brief No. */
  static constexpr bool kPass = false;
};
/*! \brief float has packets. */
template <PacketArch Arch>
struct PacketCheck<float, Arch> {
  /*! \brief Yes. */
  static constexpr bool kPass = true;
};
/*! \brief double has packets. */
template <PacketArch Arch>
struct PacketCheck<double, Arch> {
  /*! \brief Yes. */
  static constexpr bool kPass = true;
};
/*! \brief A scalar: when its type has packets. */
template <typename DType, PacketArch Arch>
struct PacketCheck<ScalarExp<DType>, Arch> {
  /*! \brief As DType. */
  static constexpr bool kPass = PacketCheck<DType, Arch>::kPass;
};
/*! \brief A cpu tensor: when its type has packets. */
template <int dim, typename DType, PacketArch Arch>
struct PacketCheck<::shade::Tensor<::shade::cpu, dim, DType>, Arch> {
  /*! \brief As DType. */
  static constexpr bool kPass = PacketCheck<DType, Arch>::kPass;
};
/*! \brief A unary map: its operand passes and OP has a packet form. */
template <typename OP, typename TA, typename DType, int etype, PacketArch Arch>
struct PacketCheck<UnaryMapExp<OP, TA, DType, etype>, Arch> {
  /*! \brief Both. */
  static constexpr bool kPass =
      PacketCheck<TA, Arch>::kPass && packet::PacketOp<OP, DType, Arch>::kEnabled;
};
/*! \brief A binary map: both operands pass and OP has a packet form. */
template <typename OP, typename TA, typename TB, typename DType, int etype, PacketArch Arch>
struct PacketCheck<BinaryMapExp<OP, TA, TB, DType, etype>, Arch> {
  /*! \brief All three. */
  static constexpr bool kPass = packet::PacketOp<OP, DType, Arch>::kEnabled &&
                                PacketCheck<TA, Arch>::kPass && PacketCheck<TB, Arch>::kPass;
};

/*! \brief Whether every tensor of expression E is aligned for Arch (Check). */
template <int dim, typename E, PacketArch Arch>
struct PacketAlignCheck {
  /*! \brief false: not a packet expression. */
  static bool Check(const E& /*exp*/) { return false; }
};
/*! \brief A scalar is always aligned. */
template <int dim, typename DType, PacketArch Arch>
struct PacketAlignCheck<dim, ScalarExp<DType>, Arch> {
  /*! \brief true. */
  static bool Check(const ScalarExp<DType>& /*exp*/) { return true; }
};
/*! \brief A tensor: its pointer and its row pitch in bytes are aligned. */
template <int dim, typename DType, PacketArch Arch>
struct PacketAlignCheck<dim, ::shade::Tensor<::shade::cpu, dim, DType>, Arch> {
  /*! \brief Both aligned. */
  static bool Check(const ::shade::Tensor<::shade::cpu, dim, DType>& t) {
    return packet::CheckAlign<Arch>(static_cast<void*>(t.dptr_)) &&
           packet::CheckAlign<Arch>(static_cast<size_t>(t.stride_) * sizeof(DType));
  }
};
/*! \brief A unary map: its operand. */
template <int dim, typename OP, typename TA, typename DType, int etype, PacketArch Arch>
struct PacketAlignCheck<dim, UnaryMapExp<OP, TA, DType, etype>, Arch> {
  /*! \brief As the operand. */
  static bool Check(const UnaryMapExp<OP, TA, DType, etype>& t) {
    return PacketAlignCheck<dim, TA, Arch>::Check(t.src_);
  }
};
/*! \brief A binary map: both operands. */
template <int dim, typename OP, typename TA, typename TB, typename DType, int etype,
          PacketArch Arch>
struct PacketAlignCheck<dim, BinaryMapExp<OP, TA, TB, DType, etype>, Arch> {
  /*! \brief Both operands. */
  static bool Check(const BinaryMapExp<OP, TA, TB, DType, etype>& t) {
    return PacketAlignCheck<dim, TA, Arch>::Check(t.lhs_) &&
           PacketAlignCheck<dim, TB, Arch>::Check(t.rhs_);
  }
};

/*!
 * \brief `dst saver= plan`, row by row: whole packets over the aligned prefix of each row, then
 *  element by element (mshadow's loop). dst and the plan's tensors must pass PacketAlignCheck.
 */
template <typename SV, typename E, int dim, typename DType, PacketArch Arch>
inline void MapPacketPlan(::shade::Tensor<::shade::cpu, dim, DType> dst_nd,
                          const PacketPlan<E, DType, Arch>& plan) {
  const ::shade::Tensor<::shade::cpu, 2, DType> dst = dst_nd.FlatTo2D();
  const index_t xlen = packet::LowerAlign<DType, Arch>(dst.size(1));
  const index_t step = packet::Packet<DType, Arch>::size;
  for (index_t y = 0; y < dst.size(0); ++y) {
    DType* row = dst.dptr_ + y * dst.stride_;
    for (index_t x = 0; x < xlen; x += step) {
      packet::Saver<SV, DType, Arch>::Save(row + x, plan.EvalPacket(y, x));
    }
    for (index_t x = xlen; x < dst.size(1); ++x) SV::Save(row[x], plan.Eval(y, x));
  }
}
}  // namespace expr
}  // namespace mshadow

#endif  // SHADE_COMPAT_MSHADOW_PACKET_H_
