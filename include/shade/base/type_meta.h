/*!
 * \file type_meta.h
 * \brief `TypeMeta`: a type-erased element type (name, itemsize, placement construct / destroy /
 *  copy) as Caffe2 uses it, mapped to the numeric dtype flags of dtype.h.
 *
 * A TypeMeta is one pointer to a per-type static record, so it is copied and compared for free.
 * Element types that are plain bytes (the numeric types and any trivially copyable, trivially
 * destructible type) get null function pointers: storing them costs nothing and copies are
 * memcpy. Other types (std::string, ...) are constructed, copied and destroyed element by element.
 */
#ifndef SHADE_BASE_TYPE_META_H_
#define SHADE_BASE_TYPE_META_H_

#include <cstddef>
#include <cstring>
#include <iosfwd>
#include <new>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "shade/base/dtype.h"
#include "shade/base/error.h"

namespace shade {

namespace detail {

/*! \brief Default-constructs n elements at ptr (placement new). */
using TypeCtor = void (*)(void* ptr, std::size_t n);
/*! \brief Destroys n elements at ptr. */
using TypeDtor = void (*)(void* ptr, std::size_t n);
/*! \brief Copy-assigns n elements from src to (already constructed) dst. */
using TypeCopy = void (*)(const void* src, void* dst, std::size_t n);

/*! \brief The static record a TypeMeta points to. */
struct TypeMetaData {
  const char* name;
  std::size_t itemsize;
  TypeCtor ctor;
  TypeDtor dtor;
  TypeCopy copy;
  int flag;  // dtype.h flag, or -1 for a non-numeric type
};

/*! \brief Demangled type name for non-numeric types (kept alive for the process). */
const char* DemangledTypeName(const std::type_info& info);

/*! \brief Flag of T when dtype.h knows it, else -1. */
template <typename T, typename = void>
struct FlagOf {
  static constexpr int value = -1;
};
template <typename T>
struct FlagOf<T, decltype(void(DataType<T>::kFlag))> {
  static constexpr int value = DataType<T>::kFlag;
};

/*! \brief True when T can live in raw bytes: no construction, copy or destruction code. */
template <typename T>
constexpr bool kIsRawStorable =
    std::is_trivially_copyable<T>::value && std::is_trivially_destructible<T>::value &&
    (std::is_trivially_default_constructible<T>::value || FlagOf<T>::value >= 0);

template <typename T>
void PlacementNew(void* ptr, std::size_t n) {
  T* p = static_cast<T*>(ptr);
  std::size_t i = 0;
  try {
    for (; i < n; ++i) new (p + i) T();
  } catch (...) {
    // Leave nothing half-built: destroy what was constructed, then report.
    while (i > 0) p[--i].~T();
    throw;
  }
}
template <typename T>
void PlacementDelete(void* ptr, std::size_t n) {
  T* p = static_cast<T*>(ptr);
  for (std::size_t i = 0; i < n; ++i) p[i].~T();
}
template <typename T>
void CopyAssign(const void* src, void* dst, std::size_t n) {
  const T* s = static_cast<const T*>(src);
  T* d = static_cast<T*>(dst);
  for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
}

template <typename T>
const char* NameOf() {
  if constexpr (FlagOf<T>::value >= 0) {
    return DataType<T>::kName;
  } else if constexpr (std::is_same<T, std::string>::value) {
    return "std::string";
  } else {
    return DemangledTypeName(typeid(T));
  }
}

/*! \brief The one record per type (an inline function's static is unique program-wide). */
template <typename T>
const TypeMetaData* MetaDataOf() {
  static_assert(!std::is_reference<T>::value && !std::is_const<T>::value,
                "TypeMeta: element types are plain object types");
  static const TypeMetaData data{
      NameOf<T>(), sizeof(T), kIsRawStorable<T> ? nullptr : &PlacementNew<T>,
      kIsRawStorable<T> ? nullptr : &PlacementDelete<T>, kIsRawStorable<T> ? nullptr : &CopyAssign<T>,
      FlagOf<T>::value};
  return &data;
}

/*! \brief Record of the uninitialized meta (no type yet). */
const TypeMetaData* UninitializedMetaData();

}  // namespace detail

/*! \brief Type-erased element type: one pointer, compared by identity. */
class TypeMeta {
 public:
  /*! \brief The uninitialized meta: no element type yet (itemsize 0). */
  TypeMeta() noexcept : data_(detail::UninitializedMetaData()) {}
  /*! \brief The meta of T. */
  template <typename T>
  static TypeMeta Make() noexcept {
    return TypeMeta(detail::MetaDataOf<T>());
  }
  /*! \brief The meta of a numeric dtype flag; throws shade::Error for an unknown flag. */
  static TypeMeta FromFlag(int flag) {
    return DispatchDTypeWithComplex(flag,
                                    [](auto tag) { return Make<typename decltype(tag)::type>(); });
  }
  /*! \brief Name of T as TypeMeta reports it ("float32", "std::string", ...). */
  template <typename T>
  static const char* TypeName() noexcept {
    return detail::MetaDataOf<T>()->name;
  }
  /*! \brief True when this is the meta of T. */
  template <typename T>
  bool Match() const noexcept {
    return data_ == detail::MetaDataOf<T>();
  }
  /*! \brief Type name; "nullptr (uninitialized)" before a type is set. */
  const char* name() const noexcept { return data_->name; }
  /*! \brief Bytes per element (0 when uninitialized). */
  std::size_t itemsize() const noexcept { return data_->itemsize; }
  /*! \brief Placement constructor, or null when the type is raw bytes. */
  detail::TypeCtor ctor() const noexcept { return data_->ctor; }
  /*! \brief Destructor, or null when the type is raw bytes. */
  detail::TypeDtor dtor() const noexcept { return data_->dtor; }
  /*! \brief Element copy, or null when memcpy suffices. */
  detail::TypeCopy copy() const noexcept { return data_->copy; }
  /*! \brief The dtype.h flag (kFloat32, ...), or -1 for a non-numeric or uninitialized type. */
  int flag() const noexcept { return data_->flag; }
  /*! \brief True once an element type is set. */
  bool initialized() const noexcept { return data_ != detail::UninitializedMetaData(); }
  /*! \brief Copies n elements (memcpy for raw types, element copy-assignment otherwise). */
  void CopyItems(const void* src, void* dst, std::size_t n) const {
    if (n == 0) return;
    if (data_->copy) {
      data_->copy(src, dst, n);
    } else {
      std::memcpy(dst, src, n * data_->itemsize);
    }
  }
  /*! \brief Same type. */
  friend bool operator==(TypeMeta a, TypeMeta b) noexcept { return a.data_ == b.data_; }
  /*! \brief Different types. */
  friend bool operator!=(TypeMeta a, TypeMeta b) noexcept { return a.data_ != b.data_; }

 private:
  explicit TypeMeta(const detail::TypeMetaData* d) noexcept : data_(d) {}
  const detail::TypeMetaData* data_;
};

/*! \brief Prints the type name. */
std::ostream& operator<<(std::ostream& os, TypeMeta meta);

}  // namespace shade

#endif  // SHADE_BASE_TYPE_META_H_
