/*!
 * \file numeric_info.h
 * \brief NumPy's constants (pi, e, inf, nan, euler_gamma) and machine limits of shade's dtypes
 *  (np.finfo / np.iinfo), bfloat16 included.
 */
#ifndef SHADE_NDARRAY_NUMERIC_INFO_H_
#define SHADE_NDARRAY_NUMERIC_INFO_H_

#include <cstdint>
#include <limits>

namespace shade {
/*! \brief NumPy's mathematical constants (numpy.pi, ...), as doubles. */
namespace constants {
inline constexpr double pi = 3.141592653589793238462643383279502884;  //!< numpy.pi
inline constexpr double e = 2.718281828459045235360287471352662498;   //!< numpy.e
inline constexpr double euler_gamma =
    0.577215664901532860606512090082402431;                              //!< numpy.euler_gamma
inline constexpr double inf = std::numeric_limits<double>::infinity();   //!< numpy.inf
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();  //!< numpy.nan
}  // namespace constants

/*! \brief Limits of a float dtype (np.finfo's fields). */
struct FloatInfo {
  int bits;                   //!< storage bits
  int nmant;                  //!< explicit mantissa bits
  int nexp;                   //!< exponent bits
  int machep;                 //!< eps = 2**machep
  int negep;                  //!< epsneg = 2**negep
  int minexp;                 //!< exponent of tiny (smallest normal)
  int maxexp;                 //!< smallest power of 2 that overflows
  int precision;              //!< decimal digits: floor(nmant * log10(2))
  double eps;                 //!< 1's distance to the next larger value
  double epsneg;              //!< 1's distance to the next smaller value
  double max;                 //!< largest finite value
  double min;                 //!< -max
  double tiny;                //!< smallest positive normal (smallest_normal)
  double smallest_subnormal;  //!< smallest positive subnormal
  double resolution;          //!< 10**-precision
};

/*! \brief np.finfo of a float dtype flag (float16, bfloat16, float32, float64); TypeError else. */
FloatInfo FInfo(int flag);

/*! \brief Limits of an integer dtype (np.iinfo's fields). */
struct IntInfo {
  int bits;           //!< storage bits
  std::int64_t min;   //!< smallest value
  std::uint64_t max;  //!< largest value
  bool is_signed;     //!< signed dtype
};

/*! \brief np.iinfo of an integer dtype flag; TypeError for others (bool and floats). */
IntInfo IInfo(int flag);

}  // namespace shade

#endif  // SHADE_NDARRAY_NUMERIC_INFO_H_
