// The interop example's C++ half: writes an array as a .npy file (NumPy reads it in
// interop.py) and reads it back. Usage: interop_npy DIR
#include <iostream>
#include <string>

#include "shade/shade.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: interop_npy DIR\n";
    return 2;
  }
  const std::string path = std::string(argv[1]) + "/table.npy";
  const shade::NDArray table = shade::arange(0, 6, 1, shade::kFloat32).reshape({2, 3}) * 2.0f;
  shade::io::SaveNpy(path, table);
  const shade::NDArray back = shade::io::LoadNpy(path);
  std::cout << "wrote " << path << ":\n" << back << "\n";
  return shade::item<bool>(shade::all(back == table)) ? 0 : 1;
}
