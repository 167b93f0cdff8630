/*!
 * \file mshadow_logging.h
 * \brief The logging macros mshadow's logging.h gives a stand-alone build (dmlc-core's names:
 *  CHECK, CHECK_EQ, ..., LOG(INFO), LOG(FATAL), LOG_IF, DLOG, ...), with mshadow's text. The one
 *  difference: a failed CHECK or LOG(FATAL) throws shade::Error (which is dmlc::Error) carrying
 *  the message where mshadow's stand-alone logger aborts. Like mshadow's, the header defines
 *  nothing when dmlc-core's logging.h (DMLC_LOGGING_H_) came first. Included by
 *  shade/compat/mshadow.h.
 */
#ifndef SHADE_COMPAT_MSHADOW_LOGGING_H_
#define SHADE_COMPAT_MSHADOW_LOGGING_H_

#ifndef DMLC_LOGGING_H_
/*! \brief dmlc-core's include guard: a later <dmlc/logging.h> then defines nothing twice. */
#define DMLC_LOGGING_H_

#include <cstdio>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>

#include "shade/base/error.h"

namespace dmlc {
/*! \brief dmlc::Error is shade::Error. */
using Error = ::shade::Error;
/*! \brief Nothing to set up without glog (as in mshadow). */
inline void InitLogging(const char* /*argv0*/) {}

/*! \brief Local wall-clock time as "hh:mm:ss", the prefix of each log line. */
class DateLogger {
 public:
  /*! \brief The current local time. */
  const char* HumanDate() {
    const std::time_t time_value = std::time(nullptr);
    struct tm now;
    localtime_r(&time_value, &now);
    std::snprintf(
        buffer_, sizeof(buffer_), "%02u:%02u:%02u", static_cast<unsigned>(now.tm_hour) % 100u,
        static_cast<unsigned>(now.tm_min) % 100u, static_cast<unsigned>(now.tm_sec) % 100u);
    return buffer_;
  }

 private:
  char buffer_[9];
};

/*! \brief One line on std::cerr: "[hh:mm:ss] file:line: message". */
class LogMessage {
 public:
  /*! \brief Writes the line's prefix. */
  LogMessage(const char* file, int line) : log_stream_(std::cerr) {
    log_stream_ << "[" << pretty_date_.HumanDate() << "] " << file << ":" << line << ": ";
  }
  /*! \brief Ends the line. */
  ~LogMessage() { log_stream_ << "\n"; }
  LogMessage(const LogMessage&) = delete;
  LogMessage& operator=(const LogMessage&) = delete;
  /*! \brief Where the message goes. */
  std::ostream& stream() { return log_stream_; }

 protected:
  /*! \brief std::cerr. */
  std::ostream& log_stream_;

 private:
  DateLogger pretty_date_;
};

/*!
 * \brief Collects "[hh:mm:ss] file:line: message" and throws it as shade::Error when the
 *  statement ends (mshadow's stand-alone logger aborts instead).
 */
class LogMessageFatal {
 public:
  /*! \brief Starts the message. */
  LogMessageFatal(const char* file, int line) {
    log_stream_ << "[" << pretty_date_.HumanDate() << "] " << file << ":" << line << ": ";
  }
  LogMessageFatal(const LogMessageFatal&) = delete;
  LogMessageFatal& operator=(const LogMessageFatal&) = delete;
  /*! \brief Where the message goes. */
  std::ostringstream& stream() { return log_stream_; }
  /*! \brief Throws the message. */
  ~LogMessageFatal() noexcept(false) { throw ::shade::Error(log_stream_.str()); }

 private:
  std::ostringstream log_stream_;
  DateLogger pretty_date_;
};

/*! \brief Turns a log stream expression into void (for LOG_IF's conditional). */
class LogMessageVoidify {
 public:
  /*! \brief Discards the stream. */
  void operator&(std::ostream&) {}
};
}  // namespace dmlc

/*! \brief Throws "Check failed: x " (and what is streamed after) unless x holds. */
#define CHECK(x)                                                      \
  if (!(x))                                                           \
  dmlc::LogMessageFatal(__FILE__, __LINE__).stream() << "Check "      \
                                                        "failed: " #x \
                                                     << ' '
/*! \brief CHECK((x) < (y)); the message names the expression, not the values (as mshadow). */
#define CHECK_LT(x, y) CHECK((x) < (y))
/*! \brief CHECK((x) > (y)). */
#define CHECK_GT(x, y) CHECK((x) > (y))
/*! \brief CHECK((x) <= (y)). */
#define CHECK_LE(x, y) CHECK((x) <= (y))
/*! \brief CHECK((x) >= (y)). */
#define CHECK_GE(x, y) CHECK((x) >= (y))
/*! \brief CHECK((x) == (y)). */
#define CHECK_EQ(x, y) CHECK((x) == (y))
/*! \brief CHECK((x) != (y)). */
#define CHECK_NE(x, y) CHECK((x) != (y))
/*! \brief x, or a throw "Check  notnull: x " when it is null. */
#define CHECK_NOTNULL(x)                                                                 \
  ((x) == NULL                                                                           \
   ? dmlc::LogMessageFatal(__FILE__, __LINE__).stream() << "Check  notnull: " #x << ' ', \
   (x) : (x))  // NOLINT(*)
#ifdef NDEBUG
/*! \brief Debug-only CHECK: compiled but never run under NDEBUG. */
#define DCHECK(x) \
  while (false) CHECK(x)
#define DCHECK_LT(x, y) \
  while (false) CHECK((x) < (y))
#define DCHECK_GT(x, y) \
  while (false) CHECK((x) > (y))
#define DCHECK_LE(x, y) \
  while (false) CHECK((x) <= (y))
#define DCHECK_GE(x, y) \
  while (false) CHECK((x) >= (y))
#define DCHECK_EQ(x, y) \
  while (false) CHECK((x) == (y))
#define DCHECK_NE(x, y) \
  while (false) CHECK((x) != (y))
#else
/*! \brief Debug-only CHECK: checks in builds without NDEBUG. */
#define DCHECK(x) CHECK(x)
/*! \brief Debug-only CHECK((x) < (y)). */
#define DCHECK_LT(x, y) CHECK((x) < (y))
/*! \brief Debug-only CHECK((x) > (y)). */
#define DCHECK_GT(x, y) CHECK((x) > (y))
/*! \brief Debug-only CHECK((x) <= (y)). */
#define DCHECK_LE(x, y) CHECK((x) <= (y))
/*! \brief Debug-only CHECK((x) >= (y)). */
#define DCHECK_GE(x, y) CHECK((x) >= (y))
/*! \brief Debug-only CHECK((x) == (y)). */
#define DCHECK_EQ(x, y) CHECK((x) == (y))
/*! \brief Debug-only CHECK((x) != (y)). */
#define DCHECK_NE(x, y) CHECK((x) != (y))
#endif  // NDEBUG

/*! \brief The log objects behind LOG(severity). */
#define LOG_INFO dmlc::LogMessage(__FILE__, __LINE__)
/*! \brief LOG(ERROR): an INFO-style line. */
#define LOG_ERROR LOG_INFO
/*! \brief LOG(WARNING): an INFO-style line. */
#define LOG_WARNING LOG_INFO
/*! \brief LOG(FATAL): throws (dmlc::Error) when the line ends, instead of aborting. */
#define LOG_FATAL dmlc::LogMessageFatal(__FILE__, __LINE__)
/*! \brief LOG(QFATAL): as LOG(FATAL). */
#define LOG_QFATAL LOG_FATAL
/*! \brief Verbose logging: always an INFO line here. */
#define VLOG(x) LOG_INFO.stream()
/*! \brief `LOG(INFO) << ...` (also WARNING, ERROR, FATAL, QFATAL, DFATAL). */
#define LOG(severity) LOG_##severity.stream()
/*! \brief Short for LOG(INFO). */
#define LG LOG_INFO.stream()
/*! \brief Logs only when the condition holds. */
#define LOG_IF(severity, condition) \
  !(condition) ? (void)0 : dmlc::LogMessageVoidify() & LOG(severity)
#ifdef NDEBUG
#define LOG_DFATAL LOG_ERROR
#define DFATAL ERROR
#define DLOG(severity) true ? (void)0 : dmlc::LogMessageVoidify() & LOG(severity)
#define DLOG_IF(severity, condition) \
  (true || !(condition)) ? (void)0 : dmlc::LogMessageVoidify() & LOG(severity)
#else
/*! \brief FATAL in debug builds, ERROR under NDEBUG. */
#define LOG_DFATAL LOG_FATAL
/*! \brief The DFATAL severity: FATAL in debug builds, ERROR under NDEBUG. */
#define DFATAL FATAL
/*! \brief LOG in debug builds, nothing under NDEBUG. */
#define DLOG(severity) LOG(severity)
/*! \brief LOG_IF in debug builds, nothing under NDEBUG. */
#define DLOG_IF(severity, condition) LOG_IF(severity, condition)
#endif
/*!
 * \brief Runs `func` and swallows a dmlc::Error, logging it unless its text mentions "driver
 *  shutting down" (mshadow's base.h, meant for CUDA teardown).
 */
#define MSHADOW_CATCH_ERROR(func)                                   \
  {                                                                 \
    try {                                                           \
      (func);                                                       \
    } catch (const dmlc::Error& e) {                                \
      std::string what = e.what();                                  \
      if (what.find("driver shutting down") == std::string::npos) { \
        LOG(ERROR) << "Ignore CUDA Error " << what;                 \
      }                                                             \
    }                                                               \
  }
/*! \brief Every occurrence is logged (as in mshadow's stand-alone logger). */
#define LOG_EVERY_N(severity, n) LOG(severity)

#endif  // DMLC_LOGGING_H_
#endif  // SHADE_COMPAT_MSHADOW_LOGGING_H_
