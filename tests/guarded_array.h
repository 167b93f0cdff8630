// Test helper: an array whose last element ends exactly where an inaccessible page begins, so a
// kernel that reads or writes one element past the end faults (SIGSEGV) instead of passing
// silently. Used to check the partial packets of the tails (masked loads and stores).
#ifndef SHADE_TESTS_GUARDED_ARRAY_H_
#define SHADE_TESTS_GUARDED_ARRAY_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <stdexcept>

namespace shade_test {

/*! n elements of T ending at a PROT_NONE page; the elements are left uninitialised. */
template <class T>
class GuardedArray {
 public:
  explicit GuardedArray(std::size_t n) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t bytes = n * sizeof(T);
    const std::size_t data_pages = (bytes + page - 1) / page;
    size_ = (data_pages + 1) * page;
    void* base = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw std::runtime_error("GuardedArray: mmap failed");
    base_ = static_cast<char*>(base);
    if (mprotect(base_ + data_pages * page, page, PROT_NONE) != 0) {
      munmap(base_, size_);
      throw std::runtime_error("GuardedArray: mprotect failed");
    }
    data_ = reinterpret_cast<T*>(base_ + data_pages * page - bytes);
  }
  GuardedArray(const GuardedArray&) = delete;
  GuardedArray& operator=(const GuardedArray&) = delete;
  ~GuardedArray() { munmap(base_, size_); }
  /*! The first element; data() + n is the first inaccessible address. */
  T* data() { return data_; }
  /*! Element i. */
  T& operator[](std::size_t i) { return data_[i]; }

 private:
  char* base_ = nullptr;
  std::size_t size_ = 0;
  T* data_ = nullptr;
};

}  // namespace shade_test

#endif  // SHADE_TESTS_GUARDED_ARRAY_H_
