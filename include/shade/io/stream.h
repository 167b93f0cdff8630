/*!
 * \file stream.h
 * \brief Byte streams for serialization: the seed's `Read`/`Write` interface as an abstract
 *  class, with a file stream, an owning memory stream and a read-only view over caller bytes.
 *
 * Named `shade::io::Stream` so it never clashes with the device `Stream<Device>` template.
 * Loaders need to know how many bytes a stream still holds before they allocate (a header
 * can claim any size), so every stream reports `BytesLeft()` when it can.
 */
#ifndef SHADE_IO_STREAM_H_
#define SHADE_IO_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "shade/base/error.h"

namespace shade {
namespace io {

/*!
 * \brief An IOError from a failed system call, with its `errno`: Python raises the matching
 *  OSError subclass (FileNotFoundError, PermissionError, ...) for it, as NumPy's file functions.
 */
class SystemIOError : public IOError {
 public:
  /*! \brief With the complete message and the system's error number. */
  SystemIOError(const std::string& what, int os_errno);
  ~SystemIOError() override;
  /*! \brief The errno of the failed call. */
  int os_errno() const { return os_errno_; }

 private:
  int os_errno_;
};

namespace detail {
/*! \brief `SystemIOErrorThrower{err} & msg` throws SystemIOError(msg, err). */
struct SystemIOErrorThrower {
  int os_errno;
  [[noreturn]] void operator&(const ::shade::detail::ErrorMessage& msg) const;
};
}  // namespace detail

/*! \brief Abstract byte stream (dmlc-core's Stream interface). */
class Stream {
 public:
  virtual ~Stream() = default;
  /*!
   * \brief Reads up to `size` bytes into `ptr`; returns the number read, fewer than `size`
   *  only at the end of the stream. Throws shade::Error on an I/O error.
   */
  virtual std::size_t Read(void* ptr, std::size_t size) = 0;
  /*! \brief Writes `size` bytes from `ptr`; throws shade::Error when they cannot all be written. */
  virtual void Write(const void* ptr, std::size_t size) = 0;
  /*!
   * \brief Bytes between the read position and the end, when known (files, memory);
   *  returns false when the stream cannot tell (a pipe).
   */
  virtual bool BytesLeft(std::uint64_t* out) const {
    (void)out;
    return false;
  }
  /*! \brief Name used in error messages: the file path, or "<memory>". */
  virtual const std::string& name() const = 0;

  /*! \brief Reads exactly `size` bytes or throws shade::Error naming the stream and `what`. */
  void ReadExact(void* ptr, std::size_t size, const char* what);
};

/*! \brief A file opened with a stdio mode: "rb"/"r" (read), "wb"/"w" (write), "ab"/"a" (append). */
class FileStream : public Stream {
 public:
  /*! \brief Opens `path`; throws shade::Error naming the path and the OS reason on failure. */
  FileStream(const std::string& path, const char* mode);
  /*! \brief Closes the file (errors at close are lost here: call Close() to see them). */
  ~FileStream() override;
  FileStream(const FileStream&) = delete;
  FileStream& operator=(const FileStream&) = delete;

  std::size_t Read(void* ptr, std::size_t size) override;
  void Write(const void* ptr, std::size_t size) override;
  bool BytesLeft(std::uint64_t* out) const override;
  const std::string& name() const override { return path_; }
  /*! \brief Flushes and closes; throws shade::Error when buffered data cannot be written. */
  void Close();

 private:
  std::string path_;
  std::FILE* fp_ = nullptr;
  bool writable_ = false;
};

/*! \brief An owning, growable in-memory stream with a read/write position. */
class MemoryStream : public Stream {
 public:
  /*! \brief Empty stream. */
  MemoryStream() = default;
  /*! \brief Stream over a copy of `bytes`, positioned at the start. */
  explicit MemoryStream(std::string bytes) : buffer_(std::move(bytes)) {}

  std::size_t Read(void* ptr, std::size_t size) override;
  void Write(const void* ptr, std::size_t size) override;
  bool BytesLeft(std::uint64_t* out) const override;
  const std::string& name() const override;

  /*! \brief Everything written so far (the whole buffer). */
  const std::string& buffer() const { return buffer_; }
  /*! \brief Moves the position to `pos` (at most the buffer size). */
  void Seek(std::size_t pos);
  /*! \brief Current position. */
  std::size_t Tell() const { return pos_; }

 private:
  std::string buffer_;
  std::size_t pos_ = 0;
};

/*! \brief A read-only stream over bytes the caller owns (kept alive by the caller). */
class MemoryViewStream : public Stream {
 public:
  /*! \brief View of [data, data + size). */
  MemoryViewStream(const void* data, std::size_t size)
      : data_(static_cast<const unsigned char*>(data)), size_(size) {}

  std::size_t Read(void* ptr, std::size_t size) override;
  /*! \brief Always throws: the view is read-only. */
  void Write(const void* ptr, std::size_t size) override;
  bool BytesLeft(std::uint64_t* out) const override;
  const std::string& name() const override;
  /*! \brief Current position. */
  std::size_t Tell() const { return pos_; }

 private:
  const unsigned char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace io
}  // namespace shade

/*! \brief Throws shade::io::SystemIOError carrying `err` (an errno value) and the streamed text. */
#define SHADE_THROW_IO_ERRNO(err) \
  ::shade::io::detail::SystemIOErrorThrower{err} & ::shade::detail::ErrorMessage(__FILE__, __LINE__)

#endif  // SHADE_IO_STREAM_H_
