/*!
 * \file atomic_file.h
 * \brief Atomic replacement of a file: every save to a path in shade writes a temporary file in
 *  the target's folder, flushes and fsyncs it, renames it over the target and fsyncs the folder.
 *
 * A reader of the path, a process killed mid-save, a full disk, a write error or an exception
 * thrown by the data being saved therefore never leaves a torn file: the path holds either the
 * old bytes, byte for byte, or the complete new ones. On every failure before the rename the
 * temporary is removed and shade::IOError names the path and the OS error.
 *
 * Writes to a Stream the caller owns (SaveNpy(Stream*, ...), a FileStream opened by the caller)
 * are not atomic: they go where the caller points them, and a failure leaves whatever was
 * written so far. Only the functions that take a path use this class.
 *
 * The new file gets the permissions of any new file (0666 minus the umask); nothing of the old
 * file (owner, mode, extended attributes, hard links) is carried over. When the path is a
 * symbolic link, the file it points to is replaced and the link stays.
 */
#ifndef SHADE_IO_ATOMIC_FILE_H_
#define SHADE_IO_ATOMIC_FILE_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "shade/io/stream.h"

namespace shade {
namespace io {

/*!
 * \brief A write-only Stream whose bytes replace `path` atomically at Commit(); destroyed
 *  without Commit() (an exception, an early return), it leaves the path untouched and removes
 *  its temporary.
 */
class AtomicFileStream : public Stream {
 public:
  /*!
   * \brief Creates the temporary in the folder of `path` (an unnamed O_TMPFILE file where the
   *  filesystem has it, else a uniquely named one); throws shade::IOError naming `path` and the
   *  OS error when the folder cannot take a new file.
   */
  explicit AtomicFileStream(const std::string& path) : AtomicFileStream(path, true) {}
  /*!
   * \brief As above; with `allow_unnamed` false the temporary always has a name from the start
   *  (what filesystems without O_TMPFILE get; for tests of that path).
   */
  AtomicFileStream(const std::string& path, bool allow_unnamed);
  /*! \brief Abandons the temporary unless Commit() succeeded. */
  ~AtomicFileStream() override;
  AtomicFileStream(const AtomicFileStream&) = delete;
  AtomicFileStream& operator=(const AtomicFileStream&) = delete;

  /*! \brief Always throws shade::IOError: the stream is write-only. */
  std::size_t Read(void* ptr, std::size_t size) override;
  /*! \brief Appends bytes (buffered); throws shade::IOError on a write error (EFBIG, ENOSPC, ...).
   */
  void Write(const void* ptr, std::size_t size) override;
  /*! \brief The target path, as given. */
  const std::string& name() const override { return path_; }

  /*!
   * \brief Flushes, fsyncs, renames the temporary over the target and fsyncs the folder.
   *  Throws shade::IOError (the temporary removed, the target untouched) when any step up to the
   *  rename fails; a failure to fsync the folder after the rename is reported too, though the
   *  new file is then already in place.
   */
  void Commit();

  /*! \brief Whether the temporary is unnamed (O_TMPFILE) until Commit(). */
  bool unnamed_temporary() const { return unnamed_; }
  /*! \brief The temporary's name inside the target's folder ("" while it is unnamed). */
  const std::string& temporary_name() const { return temp_; }

 private:
  void FlushBuffer();
  void WriteAll(const void* ptr, std::size_t size);
  void Abandon() noexcept;

  std::string path_;  // as the caller gave it (messages)
  std::string base_;  // file name of the target inside its folder
  std::string temp_;  // name of the temporary inside the folder while it has one
  int fd_ = -1;       // the temporary
  int dir_fd_ = -1;   // the target's folder (rename, unlink, fsync)
  bool unnamed_ = false;
  bool committed_ = false;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
};

/*!
 * \brief Atomically replaces `path` with what `write` puts into the stream it is given:
 *  commits when `write` returns, abandons (old file kept, temporary removed) and rethrows when it
 *  throws.
 */
void WriteFileAtomically(const std::string& path, const std::function<void(Stream*)>& write);

}  // namespace io
}  // namespace shade

#endif  // SHADE_IO_ATOMIC_FILE_H_
