/*!
 * \file plan.h
 * \brief `Plan<ExpType, DType>`: the evaluator of an expression. `Eval(y, x)` returns element
 *  (y, x) of the expression seen through FlatTo2D (y over the product of the leading extents,
 *  x over the last one); destination plans add `DType& REval(y, x)`. `MakePlan(exp)` builds
 *  the plan tree of an expression tree.
 *
 * ## Packet plans
 * The plans of tensors, scalars, unary/binary/ternary maps and typecasts also evaluate a whole
 * packet of consecutive columns: `PacketEval<kTail>(d, y, x, r)` returns the packet of elements
 * (y, x .. x+N) (N = hn::Lanes(d)); with kTail only the first r < N lanes are read (a tensor
 * leaf uses packet::LoadFirst: a masked load, or a zeroed lane buffer where masked loads could
 * touch memory past the mask; never a read past the row, no alignment needed) and the other
 * lanes are zeros computed by the same vector function. `kPacketPlan<E,
 * DType>` is the compile-time check that every node of E has a packet form for its element
 * type; expr/map.h takes the packet loop only then, else the scalar `Eval` loop.
 * A tensor row is always unit-stride (the row pitch applies between rows), so the check is
 * entirely by type: transposes and extensions have no packet plan and fall back.
 */
#ifndef SHADE_EXPR_PLAN_H_
#define SHADE_EXPR_PLAN_H_

#include <type_traits>

#include "shade/base/index.h"
#include "shade/expr/expression.h"
#include "shade/expr/tensor_fwd.h"
#include "shade/packet/packet.h"

namespace shade {
namespace expr {

namespace hn = packet::hn;

/*! \brief Evaluator of ExpType; specialised for every expression node and extension. */
template <typename ExpType, typename DType>
class Plan;

/*! \brief Reads (and writes) a tensor through its row pitch. */
template <typename Device, int dim, typename DType>
class Plan<Tensor<Device, dim, DType>, DType> {
 public:
  /*! \brief Captures the tensor's data pointer and row pitch (the tensor must outlive the plan). */
  explicit Plan(const Tensor<Device, dim, DType>& t) : dptr_(t.dptr_), stride_(t.stride_) {}
  /*! \brief Writable element (y, x). */
  SHADE_XINLINE DType& REval(index_t y, index_t x) { return dptr_[y * stride_ + x]; }
  /*! \brief Element (y, x). */
  SHADE_XINLINE const DType& Eval(index_t y, index_t x) const { return dptr_[y * stride_ + x]; }

  /*! \brief Start of row y (elements x of it are unit-stride). */
  SHADE_XINLINE DType* RowPtr(index_t y) const { return dptr_ + y * stride_; }
  /*! \brief Packet of row y from column x; with kTail only r lanes are read (rest zero). */
  template <bool kTail, class D>
  HWY_INLINE hn::Vec<D> PacketEval(D d, index_t y, index_t x, index_t r) const {
    const DType* p = dptr_ + y * stride_ + x;
    if constexpr (kTail) {
      return packet::LoadFirst(d, p, static_cast<size_t>(r));
    } else {
      (void)r;
      return hn::LoadU(d, p);
    }
  }
 private:
  DType* dptr_;
  index_t stride_;
};

/*! \brief The same value everywhere. */
template <typename DType>
class Plan<ScalarExp<DType>, DType> {
 public:
  /*! \brief Holds the scalar value. */
  explicit Plan(DType scalar) : scalar_(scalar) {}
  /*! \brief The scalar. */
  SHADE_XINLINE DType Eval(index_t /*y*/, index_t /*x*/) const { return scalar_; }

  /*! \brief The scalar in every lane. */
  template <bool kTail, class D>
  HWY_INLINE hn::Vec<D> PacketEval(D d, index_t, index_t, index_t) const { return hn::Set(d, scalar_); }
 private:
  DType scalar_;
};

/*! \brief Converts the source plan's values. */
template <typename DstDType, typename SrcDType, typename EType, int etype>
class Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> {
 public:
  /*! \brief Wraps the source plan. */
  explicit Plan(const Plan<EType, SrcDType>& src) : src_(src) {}
  /*! \brief DstDType(source element). */
  SHADE_XINLINE DstDType Eval(index_t y, index_t x) const { return DstDType(src_.Eval(y, x)); }

  /*! \brief Converted packet of the source (same lane count: equal-size types only). */
  template <bool kTail, class D>
  HWY_INLINE hn::Vec<D> PacketEval(D d, index_t y, index_t x, index_t r) const {
    if constexpr (std::is_same<DstDType, SrcDType>::value) {
      return src_.template PacketEval<kTail>(d, y, x, r);
    } else {
      const hn::Rebind<SrcDType, D> ds;
      return hn::ConvertTo(d, src_.template PacketEval<kTail>(ds, y, x, r));
    }
  }
 private:
  Plan<EType, SrcDType> src_;
};

/*! \brief Swaps the two indices of a 2-D source. */
template <typename EType, typename DType>
class Plan<TransposeExp<EType, DType>, DType> {
 public:
  /*! \brief Wraps the source plan (which must be 2-D). */
  explicit Plan(const Plan<EType, DType>& src) : src_(src) {}
  /*! \brief Source element (x, y). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return src_.Eval(x, y); }

 private:
  Plan<EType, DType> src_;
};

/*! \brief OP::Map of one operand. */
template <typename OP, typename TA, typename DType, int etype>
class Plan<UnaryMapExp<OP, TA, DType, etype>, DType> {
 public:
  /*! \brief Wraps the operand's plan. */
  explicit Plan(const Plan<TA, DType>& src) : src_(src) {}
  /*! \brief OP::Map(src(y, x)). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const { return DType(OP::Map(src_.Eval(y, x))); }

  /*! \brief OP::MapPacket of the operand's packet. */
  template <bool kTail, class D>
  HWY_INLINE hn::Vec<D> PacketEval(D d, index_t y, index_t x, index_t r) const {
    return OP::MapPacket(d, src_.template PacketEval<kTail>(d, y, x, r));
  }
 private:
  Plan<TA, DType> src_;
};

/*! \brief OP::Map of two operands. */
template <typename OP, typename TA, typename TB, typename DType, int etype>
class Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> {
 public:
  /*! \brief Wraps the operands' plans. */
  Plan(const Plan<TA, DType>& lhs, const Plan<TB, DType>& rhs) : lhs_(lhs), rhs_(rhs) {}
  /*! \brief OP::Map(lhs(y, x), rhs(y, x)). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return DType(OP::Map(lhs_.Eval(y, x), rhs_.Eval(y, x)));
  }

  /*! \brief OP::MapPacket of the operands' packets. */
  template <bool kTail, class D>
  HWY_INLINE hn::Vec<D> PacketEval(D d, index_t y, index_t x, index_t r) const {
    return OP::MapPacket(d, lhs_.template PacketEval<kTail>(d, y, x, r),
                         rhs_.template PacketEval<kTail>(d, y, x, r));
  }
 private:
  Plan<TA, DType> lhs_;
  Plan<TB, DType> rhs_;
};

/*! \brief OP::Map of three operands. */
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
class Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> {
 public:
  /*! \brief Wraps the three operands' plans. */
  Plan(const Plan<TA, DType>& item1, const Plan<TB, DType>& item2, const Plan<TC, DType>& item3)
      : item1_(item1), item2_(item2), item3_(item3) {}
  /*! \brief OP::Map(item1(y, x), item2(y, x), item3(y, x)). */
  SHADE_XINLINE DType Eval(index_t y, index_t x) const {
    return DType(OP::Map(item1_.Eval(y, x), item2_.Eval(y, x), item3_.Eval(y, x)));
  }

  /*! \brief OP::MapPacket of the operands' packets. */
  template <bool kTail, class D>
  HWY_INLINE hn::Vec<D> PacketEval(D d, index_t y, index_t x, index_t r) const {
    return OP::MapPacket(d, item1_.template PacketEval<kTail>(d, y, x, r),
                         item2_.template PacketEval<kTail>(d, y, x, r),
                         item3_.template PacketEval<kTail>(d, y, x, r));
  }
 private:
  Plan<TA, DType> item1_;
  Plan<TB, DType> item2_;
  Plan<TC, DType> item3_;
};

/*! \brief Plan of a tensor (any RValueExp whose concrete type has a Plan). */
template <typename T, typename DType>
inline Plan<T, DType> MakePlan(const RValueExp<T, DType>& e) {
  return Plan<T, DType>(e.self());
}
/*! \brief Plan of a scalar. */
template <typename DType>
inline Plan<ScalarExp<DType>, DType> MakePlan(const ScalarExp<DType>& e) {
  return Plan<ScalarExp<DType>, DType>(e.scalar_);
}
/*! \brief Plan of a conversion. */
template <typename DstDType, typename SrcDType, typename EType, int etype>
inline Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType> MakePlan(
    const TypecastExp<DstDType, SrcDType, EType, etype>& e) {
  return Plan<TypecastExp<DstDType, SrcDType, EType, etype>, DstDType>(MakePlan(e.exp));
}
/*! \brief Plan of a transpose. */
template <typename T, typename DType>
inline Plan<TransposeExp<T, DType>, DType> MakePlan(const TransposeExp<T, DType>& e) {
  return Plan<TransposeExp<T, DType>, DType>(MakePlan(e.exp));
}
/*! \brief Plan of a unary map. */
template <typename OP, typename TA, typename DType, int etype>
inline Plan<UnaryMapExp<OP, TA, DType, etype>, DType> MakePlan(
    const UnaryMapExp<OP, TA, DType, etype>& e) {
  return Plan<UnaryMapExp<OP, TA, DType, etype>, DType>(MakePlan(e.src_));
}
/*! \brief Plan of a binary map. */
template <typename OP, typename TA, typename TB, typename DType, int etype>
inline Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType> MakePlan(
    const BinaryMapExp<OP, TA, TB, DType, etype>& e) {
  return Plan<BinaryMapExp<OP, TA, TB, DType, etype>, DType>(MakePlan(e.lhs_), MakePlan(e.rhs_));
}
/*! \brief Plan of a ternary map. */
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
inline Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType> MakePlan(
    const TernaryMapExp<OP, TA, TB, TC, DType, etype>& e) {
  return Plan<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType>(
      MakePlan(e.item1_), MakePlan(e.item2_), MakePlan(e.item3_));
}
/*! \brief Plan of an extension: its own Plan<SubType, DType>, built from the extension. */
template <typename SubType, typename SrcExp, int dim, typename DType>
inline Plan<SubType, DType> MakePlan(const MakeTensorExp<SubType, SrcExp, dim, DType>& e) {
  return Plan<SubType, DType>(e.real_self());
}

/*!
 * \brief True when the plan of E (element type DType) has a packet form end to end: tensors and
 *  scalars of a Highway lane type, maps whose functor has MapPacket of that arity for DType,
 *  and typecasts between equal-size lane types (int32 <-> float, int64 <-> double) or to the
 *  same type. Everything else (transpose, extensions, 16-bit floats, functors without a packet
 *  form) is false and runs the scalar loop.
 */
template <typename E, typename DType>
struct PacketPlanCheck : std::false_type {};
template <typename Device, int dim, typename DType>
struct PacketPlanCheck<Tensor<Device, dim, DType>, DType>
    : std::integral_constant<bool, packet::kIsLane<DType>> {};
template <typename DType>
struct PacketPlanCheck<ScalarExp<DType>, DType> : std::integral_constant<bool, packet::kIsLane<DType>> {};
template <typename Dst, typename Src, typename E, int etype>
struct PacketPlanCheck<TypecastExp<Dst, Src, E, etype>, Dst>
    : std::integral_constant<
          bool, packet::kIsLane<Dst> && packet::kIsLane<Src> &&
                    (std::is_same<Dst, Src>::value ||
                     (sizeof(Dst) == sizeof(Src) && sizeof(Dst) >= 4 &&
                      packet::kIsFloat<Dst> != packet::kIsFloat<Src> &&
                      std::is_signed<Dst>::value && std::is_signed<Src>::value)) &&
                    PacketPlanCheck<E, Src>::value> {};
template <typename OP, typename TA, typename DType, int etype>
struct PacketPlanCheck<UnaryMapExp<OP, TA, DType, etype>, DType>
    : std::integral_constant<bool, packet::kHasPacketArity<OP, DType, 1> &&
                                       PacketPlanCheck<TA, DType>::value> {};
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct PacketPlanCheck<BinaryMapExp<OP, TA, TB, DType, etype>, DType>
    : std::integral_constant<bool, packet::kHasPacketArity<OP, DType, 2> &&
                                       PacketPlanCheck<TA, DType>::value &&
                                       PacketPlanCheck<TB, DType>::value> {};
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
struct PacketPlanCheck<TernaryMapExp<OP, TA, TB, TC, DType, etype>, DType>
    : std::integral_constant<bool, packet::kHasPacketArity<OP, DType, 3> &&
                                       PacketPlanCheck<TA, DType>::value &&
                                       PacketPlanCheck<TB, DType>::value &&
                                       PacketPlanCheck<TC, DType>::value> {};
/*! \brief See PacketPlanCheck. */
template <typename E, typename DType>
constexpr bool kPacketPlan = PacketPlanCheck<E, DType>::value;

namespace detail {
// Packet work of an expression relative to one add per element (sum of the functors' kCost,
// 1 for functors without one): sets the threading grain of the packet loop.
template <typename OP, typename = void>
struct FunctorCost : std::integral_constant<index_t, 1> {};
template <typename OP>
struct FunctorCost<OP, std::void_t<decltype(OP::kCost)>>
    : std::integral_constant<index_t, (OP::kCost > 1 ? index_t(OP::kCost) : 1)> {};
template <typename E>
struct ExpCost : std::integral_constant<index_t, 0> {};
template <typename Dst, typename Src, typename E, int etype>
struct ExpCost<TypecastExp<Dst, Src, E, etype>>
    : std::integral_constant<index_t, 1 + ExpCost<E>::value> {};
template <typename OP, typename TA, typename DType, int etype>
struct ExpCost<UnaryMapExp<OP, TA, DType, etype>>
    : std::integral_constant<index_t, FunctorCost<OP>::value + ExpCost<TA>::value> {};
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct ExpCost<BinaryMapExp<OP, TA, TB, DType, etype>>
    : std::integral_constant<index_t, FunctorCost<OP>::value + ExpCost<TA>::value + ExpCost<TB>::value> {};
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
struct ExpCost<TernaryMapExp<OP, TA, TB, TC, DType, etype>>
    : std::integral_constant<index_t, FunctorCost<OP>::value + ExpCost<TA>::value +
                                          ExpCost<TB>::value + ExpCost<TC>::value> {};
// Bytes an expression reads per element: the element sizes of its tensor leaves (scalars read
// none). With the destination's, the traffic that decides streaming stores (map.h).
template <typename E>
struct ExpReadBytes : std::integral_constant<index_t, 0> {};
template <typename Device, int dim, typename T>
struct ExpReadBytes<Tensor<Device, dim, T>> : std::integral_constant<index_t, sizeof(T)> {};
template <typename Dst, typename Src, typename E, int etype>
struct ExpReadBytes<TypecastExp<Dst, Src, E, etype>> : ExpReadBytes<E> {};
template <typename OP, typename TA, typename DType, int etype>
struct ExpReadBytes<UnaryMapExp<OP, TA, DType, etype>> : ExpReadBytes<TA> {};
template <typename OP, typename TA, typename TB, typename DType, int etype>
struct ExpReadBytes<BinaryMapExp<OP, TA, TB, DType, etype>>
    : std::integral_constant<index_t, ExpReadBytes<TA>::value + ExpReadBytes<TB>::value> {};
template <typename OP, typename TA, typename TB, typename TC, typename DType, int etype>
struct ExpReadBytes<TernaryMapExp<OP, TA, TB, TC, DType, etype>>
    : std::integral_constant<index_t, ExpReadBytes<TA>::value + ExpReadBytes<TB>::value +
                                          ExpReadBytes<TC>::value> {};
}  // namespace detail

}  // namespace expr
}  // namespace shade

#endif  // SHADE_EXPR_PLAN_H_
