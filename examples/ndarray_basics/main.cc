// NumPy-style data processing with NDArray: standardise the columns of a table, pick the rows
// above a threshold with a boolean mask, and summarise them per group.
#include <iostream>

#include "shade/shade.h"

int main() {
  using shade::NDArray;
  // A 6x3 table of measurements (rows: samples, columns: features), as float64.
  NDArray table = shade::arange(0, 18, 1, shade::kFloat64).reshape({6, 3});
  table = table * table / 10.0 + 1.0;
  std::cout << "table =\n" << table << "\n";

  // Column statistics (axis 0), keepdims so they broadcast back over the rows.
  NDArray mean = shade::mean(table, 0, /*keepdims=*/true);
  NDArray stddev = shade::std(table, 0, /*ddof=*/0, /*keepdims=*/true);
  NDArray z = (table - mean) / stddev;
  std::cout << "column means = " << shade::mean(table, 0) << "\n";
  std::cout << "standardised =\n" << z << "\n";

  // Rows whose first standardised feature is positive: a boolean mask and a gather.
  NDArray first = z.select(1, 0);
  NDArray mask = first > 0.0;
  std::cout << "rows with z[:, 0] > 0: " << shade::sum(mask) << " of " << table.size(0) << "\n";

  // Per-row maximum and its column, then a total.
  std::cout << "row max    = " << shade::max(table, 1) << "\n";
  std::cout << "row argmax = " << shade::argmax(table, 1) << "\n";
  std::cout << "total      = " << shade::sum(table) << "\n";
  return 0;
}
