// C entry points Python drives through ctypes to exchange DLPack tensors with shade.
// The Python C API functions needed by the capsule destructor are looked up at run time
// (they live in the python3 executable that loads this library), so no python3-dev is needed.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "shade/base/error.h"
#include "shade/io/dlpack.h"
#include "shade/ndarray/ndarray.h"

namespace {

int g_deleter_calls = 0;
std::vector<shade::NDArray> g_held;  // imported arrays, kept alive until release_all

// Wraps an export so the test can count how often the consumer runs the deleter.
struct Counted {
  DLManagedTensor outer;
  DLManagedTensor* inner;
};

void CountedDeleter(DLManagedTensor* self) {
  Counted* c = static_cast<Counted*>(self->manager_ctx);
  c->inner->deleter(c->inner);
  ++g_deleter_calls;
  delete c;
}

// The exported array: base values k % 100 (bool: k % 2), then a view per variant.
shade::NDArray MakeArray(int flag, int variant) {
  const shade::index_t rows = 3, cols = variant == 2 ? 8 : 4;
  shade::NDArray base = shade::NDArray::Empty({rows, cols}, flag);
  for (shade::index_t k = 0; k < rows * cols; ++k) {
    base.set({k / cols, k % cols}, flag == shade::kBool ? double(k % 2) : double(k % 100));
  }
  if (variant == 1) return base.transpose(0, 1);
  if (variant == 2) return base.slice(1, 1, cols, 2);
  return base;
}

}  // namespace

extern "C" {

/*! \brief Exports a test array as a legacy DLManagedTensor (null on error, message on stderr). */
void* shade_bridge_export(int flag, int variant) {
  try {
    Counted* c = new Counted();
    c->inner = shade::io::ToDLPack(MakeArray(flag, variant));
    c->outer = *c->inner;
    c->outer.manager_ctx = c;
    c->outer.deleter = &CountedDeleter;
    return &c->outer;
  } catch (const shade::Error& e) {
    std::fprintf(stderr, "shade_bridge_export: %s\n", e.what());
    return nullptr;
  }
}

/*! \brief Data pointer of an exported tensor (to prove the consumer did not copy). */
void* shade_bridge_data(void* managed) { return static_cast<DLManagedTensor*>(managed)->dl_tensor.data; }

/*! \brief How many exported tensors had their deleter run. */
int shade_bridge_deleter_calls() { return g_deleter_calls; }

/*! \brief PyCapsule destructor: runs the deleter of a capsule nobody consumed. */
void shade_bridge_capsule_destructor(void* capsule) {
  using IsValid = int (*)(void*, const char*);
  using GetPointer = void* (*)(void*, const char*);
  static IsValid is_valid = reinterpret_cast<IsValid>(dlsym(RTLD_DEFAULT, "PyCapsule_IsValid"));
  static GetPointer get_pointer = reinterpret_cast<GetPointer>(dlsym(RTLD_DEFAULT, "PyCapsule_GetPointer"));
  if (is_valid == nullptr || get_pointer == nullptr) return;
  if (is_valid(capsule, "dltensor")) {
    DLManagedTensor* m = static_cast<DLManagedTensor*>(get_pointer(capsule, "dltensor"));
    if (m != nullptr && m->deleter != nullptr) m->deleter(m);
  }
}

/*!
 * \brief Imports a legacy DLManagedTensor (taking ownership on success) and reports what shade
 *  sees: dtype name, rank, sizes, strides (elements), the element-0 pointer and the C-order
 *  bytes (up to cap). Returns 0, or -1 after printing the error (ownership stays with Python).
 */
int shade_bridge_import(void* managed, char* dtype, int* ndim, std::int64_t* sizes, std::int64_t* strides,
                        void** data, unsigned char* bytes, std::size_t cap, std::size_t* nbytes) {
  try {
    shade::NDArray a = shade::io::FromDLPack(static_cast<DLManagedTensor*>(managed));
    std::snprintf(dtype, 16, "%s", a.dtype().name());
    *ndim = a.ndim();
    for (int i = 0; i < a.ndim() && i < 8; ++i) {
      sizes[i] = a.size(i);
      strides[i] = a.stride(i);
    }
    *data = a.data_ptr();
    const shade::NDArray c = a.contiguous();
    *nbytes = c.nbytes();
    if (c.nbytes() <= cap && c.nbytes() > 0) std::memcpy(bytes, c.raw_data(), c.nbytes());
    g_held.push_back(a);
    return 0;
  } catch (const shade::Error& e) {
    std::fprintf(stderr, "shade_bridge_import: %s\n", e.what());
    return -1;
  }
}

/*! \brief Drops every imported array: each producer's deleter must run now, once. */
void shade_bridge_release_all() { g_held.clear(); }

}  // extern "C"
