// Progress on stderr: a redrawn bar on a terminal, a line per 10% otherwise.
#pragma once

#include <string>

#include "core/method.hpp"

namespace ks::cli {

class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool quiet);
  void update(const Progress& p, double work_per_second);
  void finish(const std::string& final_line);

 private:
  bool quiet_;
  bool tty_;
  int last_decile_ = -1;
  bool drawn_ = false;
};

}  // namespace ks::cli
