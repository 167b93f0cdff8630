/*!
 * \file checkpoint.h
 * \brief Weight files: a tag naming the format and the network, then each layer's tensors in
 *  shade's binary tensor format (shade/io/binary.h).
 */
#ifndef SHADE_EXAMPLES_FASHION_MNIST_CHECKPOINT_H_
#define SHADE_EXAMPLES_FASHION_MNIST_CHECKPOINT_H_

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "layers.h"
#include "shade/base/error.h"
#include "shade/io/stream.h"

namespace fashion_mnist {

/*! \brief First bytes of a weight file, followed by the 3-letter network name. */
inline const char kCheckpointTag[8] = {'S', 'H', 'A', 'D', 'E', 'F', 'M', '1'};

/*!
 * \brief Throws unless `path` can be created or overwritten, so that a bad --save fails
 *  before training rather than after it.
 */
inline void CheckWritable(const std::string& path) {
  SHADE_CHECK(!path.empty()) << "--save: empty path";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    SHADE_CHECK(!S_ISDIR(st.st_mode)) << "--save: " << path
                                      << " is a directory; give a file name";
    if (::access(path.c_str(), W_OK) != 0) {
      const int err = errno;
      SHADE_THROW << "--save: cannot write " << path << ": " << std::strerror(err)
                  << "; choose another path";
    }
    return;
  }
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (::access(dir.c_str(), W_OK) != 0) {
    const int err = errno;
    SHADE_THROW << "--save: cannot create " << path << ": directory " << dir << ": "
                << std::strerror(err) << "; choose another path";
  }
}

/*! \brief Writes the tag, the network name and the weights to `path`. */
inline void SaveModel(const std::string& path, const Model& model) {
  shade::io::FileStream fo(path, "wb");
  fo.Write(kCheckpointTag, sizeof(kCheckpointTag));
  fo.Write(model.name(), 3);
  model.Save(&fo);
  fo.Close();
}

/*! \brief Reads a file written by SaveModel for the same network into `*model`. */
inline void LoadModel(const std::string& path, Model* model) {
  shade::io::FileStream fi(path, "rb");
  char tag[sizeof(kCheckpointTag)] = {};
  fi.ReadExact(tag, sizeof(tag), "the weight-file tag");
  SHADE_CHECK(std::memcmp(tag, kCheckpointTag, sizeof(tag)) == 0)
      << "--load: " << path << " is not a weight file written by this example's --save";
  char name[4] = {};
  fi.ReadExact(name, 3, "the network name");
  SHADE_CHECK(std::string(name) == model->name())
      << "--load: " << path << " holds the weights of a '" << name << "' network, not of '"
      << model->name() << "'; pass --model=" << name;
  model->Load(&fi);
  char extra = 0;
  SHADE_CHECK_EQ(fi.Read(&extra, 1), 0u) << "--load: " << path
                                          << " has bytes after the last layer (damaged file?)";
}

}  // namespace fashion_mnist

#endif  // SHADE_EXAMPLES_FASHION_MNIST_CHECKPOINT_H_
