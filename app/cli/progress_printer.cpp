#include "progress_printer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace ks::cli {

ProgressPrinter::ProgressPrinter(bool quiet) : quiet_(quiet), tty_(isatty(STDERR_FILENO) != 0) {}

void ProgressPrinter::update(const Progress& p, double work_per_second) {
  if (quiet_) return;
  const double f = std::clamp(p.fraction_done, 0.0, 1.0);
  char detail[160];
  std::snprintf(detail, sizeof detail, "iteration %lld  t = %.4g %s  residual %.3g  %.3g %s/s", static_cast<long long>(p.iteration),
                p.sim_time, p.time_unit.c_str(), p.residual, work_per_second, p.work_unit.c_str());
  if (tty_) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(f * kWidth);
    std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  %s\033[K", filled, "##############################", kWidth - filled, "", 100.0 * f, detail);
    drawn_ = true;
  } else {
    const int decile = static_cast<int>(f * 10.0);
    if (decile == last_decile_) return;
    last_decile_ = decile;
    std::fprintf(stderr, "%3d%%  %s\n", decile * 10, detail);
  }
  std::fflush(stderr);
}

void ProgressPrinter::finish(const std::string& final_line) {
  if (quiet_) return;
  if (drawn_) std::fprintf(stderr, "\n");
  std::fprintf(stderr, "%s\n", final_line.c_str());
}

}  // namespace ks::cli
