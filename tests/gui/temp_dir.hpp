// A fresh folder per test process for files the GUI tests write.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ks::test {

inline std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("ks_gui_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace ks::test
