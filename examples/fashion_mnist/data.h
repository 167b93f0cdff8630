/*!
 * \file data.h
 * \brief The order in which an epoch visits the training images: a Fisher-Yates shuffle
 *  driven by std::mt19937_64, whose output the C++ standard fixes, so the order (and with it
 *  the whole training run) is the same on every platform for a given seed. Shared with the
 *  LibTorch twin in bench/ so both see the images in the same order; and the CPU-time clock
 *  both report per epoch.
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_DATA_H_
#define SHADE_EXAMPLES_FASHION_MNIST_DATA_H_

#include <time.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace fashion_mnist {

/*!
 * \brief Sets `*order` to a permutation of 0..n-1 drawn from `rng`. The modulo draw is
 *  biased by at most n / 2^64, far below anything training can notice, and unlike
 *  std::uniform_int_distribution it is specified exactly.
 */
inline void EpochOrder(std::int64_t n, std::mt19937_64* rng, std::vector<std::int64_t>* order) {
  order->resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) (*order)[static_cast<std::size_t>(i)] = i;
  for (std::int64_t i = n - 1; i > 0; --i) {
    const std::int64_t j = static_cast<std::int64_t>((*rng)() % static_cast<std::uint64_t>(i + 1));
    std::swap((*order)[static_cast<std::size_t>(i)], (*order)[static_cast<std::size_t>(j)]);
  }
}

/*! \brief CPU seconds used by the process so far (every thread). */
inline double ProcessCpuSeconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_DATA_H_
