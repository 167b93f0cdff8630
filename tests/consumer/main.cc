// Built against an installed shade; prints a parsed shape and exits 0 when it round-trips.
#include <iostream>

#include "shade/shade.h"

int main() {
  const shade::TShape shape = shade::ParseTShape("(2, 3L, 4)");
  std::cout << "consumer: parsed " << shape << " with " << shape.Size() << " elements\n";
  return shape.Size() == 24 ? 0 : 1;
}
