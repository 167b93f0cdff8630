// TH generic file for test_compat_th: included once per real type by the TH generator headers
// (real, Real, accreal, THTensor_(NAME) set for that type). Each check compares with a naive
// loop over sizes and strides.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "compat/th_generic_checks.h"
#else

// Value of element `k` in the tests: small enough for every real type.
static real TH_CONCAT_2(ValueOf, Real)(long k) {
  return (real)(k % 50);
}  // NOLINT(runtime/int)

static void TH_CONCAT_2(GenericChecks, Real)() {
  SCOPED_TRACE(TH_CONCAT_STRING_2(TH, Real));
  // newWithSize + strides + set/get, every rank 1..4.
  THTensor* t = THTensor_(newWithSize3d)(2, 3, 4);
  EXPECT_EQ(THTensor_(nDimension)(t), 3);
  EXPECT_EQ(THTensor_(nElement)(t), 24);
  EXPECT_EQ(THTensor_(stride)(t, 0), 12);
  EXPECT_EQ(THTensor_(stride)(t, 1), 4);
  EXPECT_EQ(THTensor_(stride)(t, 2), 1);
  EXPECT_TRUE(THTensor_(isContiguous)(t));
  EXPECT_EQ(THStorage_(size)(THTensor_(storage)(t)), 24);
  EXPECT_EQ(THStorage_(elementSize)(), sizeof(real));
  for (long i = 0; i < 2; ++i)      // NOLINT(runtime/int)
    for (long j = 0; j < 3; ++j)    // NOLINT(runtime/int)
      for (long k = 0; k < 4; ++k)  // NOLINT(runtime/int)
        THTensor_(set3d)(t, i, j, k, TH_CONCAT_2(ValueOf, Real)(i * 12 + j * 4 + k));
  real* data = THTensor_(data)(t);
  for (long n = 0; n < 24; ++n)
    EXPECT_EQ((double)data[n], (double)TH_CONCAT_2(ValueOf, Real)(n));  // NOLINT

  // TH_TENSOR_APPLY with accreal over a transposed (non-contiguous) view: row-major order of
  // the view, checked against the naive index walk.
  THTensor* tr = THTensor_(newTranspose)(t, 0, 2);  // sizes 4x3x2, strides 1,4,12
  EXPECT_FALSE(THTensor_(isContiguous)(tr));
  EXPECT_EQ(THTensor_(stride)(tr, 0), 1);
  EXPECT_EQ(THTensor_(stride)(tr, 2), 12);
  accreal sum = 0, weighted = 0, expect_weighted = 0;
  long pos = 0;  // NOLINT(runtime/int)
  TH_TENSOR_APPLY(real, tr, sum += (accreal)*tr_data;
                  weighted += (accreal)(pos++) * (accreal)*tr_data;);
  accreal expect_sum = 0;
  pos = 0;
  for (long a = 0; a < 4; ++a)        // NOLINT(runtime/int)
    for (long b = 0; b < 3; ++b)      // NOLINT(runtime/int)
      for (long c = 0; c < 2; ++c) {  // NOLINT(runtime/int)
        const accreal v = (accreal)THTensor_(get3d)(tr, a, b, c);
        EXPECT_EQ((double)v, (double)TH_CONCAT_2(ValueOf, Real)(c * 12 + b * 4 + a));
        expect_sum += v;
        expect_weighted += (accreal)(pos++) * v;
      }
  EXPECT_EQ((double)sum, (double)expect_sum);
  EXPECT_EQ((double)weighted, (double)expect_weighted);

  // newClone / newContiguous of the transpose: contiguous, same values, own storage.
  THTensor* cl = THTensor_(newClone)(tr);
  THTensor* co = THTensor_(newContiguous)(tr);
  EXPECT_TRUE(THTensor_(isContiguous)(cl));
  EXPECT_TRUE(THTensor_(isSameSizeAs)(cl, tr));
  EXPECT_NE(THTensor_(storage)(cl), THTensor_(storage)(t));
  for (long a = 0; a < 4; ++a)      // NOLINT(runtime/int)
    for (long c = 0; c < 2; ++c) {  // NOLINT(runtime/int)
      EXPECT_EQ((double)THTensor_(get3d)(cl, a, 1, c), (double)THTensor_(get3d)(tr, a, 1, c));
      EXPECT_EQ((double)THTensor_(get3d)(co, a, 2, c), (double)THTensor_(get3d)(tr, a, 2, c));
    }
  // newContiguous of a contiguous tensor shares its storage.
  THTensor* same = THTensor_(newContiguous)(t);
  EXPECT_EQ(THTensor_(storage)(same), THTensor_(storage)(t));
  EXPECT_TRUE(THTensor_(isSetTo)(same, t));

  // APPLY2 across shapes with equal nElement (TH walks each tensor in its own order) and APPLY3.
  THTensor* flat = THTensor_(newWithSize1d)(24);
  TH_TENSOR_APPLY2(real, flat, real, tr, *flat_data = *tr_data;);
  THTensor* out = THTensor_(newWithSize2d)(6, 4);
  TH_TENSOR_APPLY3(real, out, real, flat, real, cl,
                   *out_data = (real)((double)*flat_data - (double)*cl_data););
  for (long n = 0; n < 24; ++n) {  // NOLINT(runtime/int)
    EXPECT_EQ((double)THTensor_(get1d)(flat, n), (double)THTensor_(data)(cl)[n]);
    EXPECT_EQ((double)THTensor_(get2d)(out, n / 4, n % 4), 0.0);
  }

  // fill / zero / copy (other shape, same nElement).
  THTensor_(fill)(out, (real)7);
  TH_TENSOR_APPLY(real, out, EXPECT_EQ((double)*out_data, 7.0););
  THTensor_(copy)(out, t);
  for (long n = 0; n < 24; ++n)
    EXPECT_EQ((double)THTensor_(get2d)(out, n / 4, n % 4), (double)data[n]);  // NOLINT
  THTensor_(zero)(tr);  // through the transposed view: every element of t
  for (long n = 0; n < 24; ++n) EXPECT_EQ((double)data[n], 0.0);  // NOLINT(runtime/int)

  // Storage functions.
  THStorage* s = THStorage_(newWithSize)(5);
  THStorage_(fill)(s, (real)3);
  THStorage_(set)(s, 4, (real)9);
  EXPECT_EQ((double)THStorage_(get)(s, 0), 3.0);
  EXPECT_EQ((double)THStorage_(get)(s, 4), 9.0);
  THStorage_(resize)(s, 7);
  EXPECT_EQ(THStorage_(size)(s), 7);
  EXPECT_EQ((double)THStorage_(data)(s)[4], 9.0);               // kept by the resize
  THTensor* v = THTensor_(newWithStorage2d)(s, 1, 3, 1, 2, 3);  // 3x2 view, column-major-ish
  EXPECT_EQ(THTensor_(storageOffset)(v), 1);
  EXPECT_EQ(THTensor_(size)(v, 0), 3);
  EXPECT_EQ(THTensor_(stride)(v, 1), 3);
  EXPECT_EQ((double)THTensor_(get2d)(v, 0, 1), (double)THStorage_(get)(s, 1 + 3));
  THStorage_(free)(s);  // the view still holds it
  EXPECT_EQ(THStorage_(size)(THTensor_(storage)(v)), 7);

  THTensor_(free)(v);
  THTensor_(free)(out);
  THTensor_(free)(flat);
  THTensor_(free)(same);
  THTensor_(free)(co);
  THTensor_(free)(cl);
  THTensor_(free)(tr);
  THTensor_(free)(t);
}

#endif
