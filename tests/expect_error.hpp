// The check every refusal test makes: the call throws ks::Error of the expected kind, and its
// message tells the user what was wrong, where (file, key, value) and what is allowed.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace ks::test_support {

// Calls f, which must throw ks::Error of `kind`; returns its message ("" after a test failure when
// f threw nothing or another exception).
template <class F>
std::string error_message(F&& f, ErrorKind kind = ErrorKind::BadInput) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected ks::Error, got another exception: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected ks::Error, nothing was thrown";
  return {};
}

// error_message, and the message must contain each of `words`.
template <class F>
void expect_error(F&& f, ErrorKind kind, std::initializer_list<std::string_view> words) {
  const std::string message = error_message(f, kind);
  if (message.empty()) return;
  for (std::string_view w : words) EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' is missing from: " << message;
}

}  // namespace ks::test_support
