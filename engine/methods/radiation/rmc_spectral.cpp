#include "rmc_spectral.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/input_file.hpp"
#include "rmc_planck.hpp"
#include "rmc_params.hpp"

namespace ks::rmc {

GasData grey_gas(double kappa) {
  GasData g;
  g.gas = "grey";
  g.source = "grey gas, kappa = " + std::to_string(kappa) + " 1/m";
  g.grey = true;
  g.T = {0.0, 1.0};
  g.weights = {1.0};
  g.nu_lo = {0.0};
  g.nu_hi = {0.0};  // unused: a grey band emits sigma T^4
  g.k = {kappa, kappa};
  return g;
}

namespace {

template <class T>
T field(const nlohmann::json& doc, const std::string& key, const std::string& file, const std::string& allowed) {
  if (!doc.contains(key)) throw bad_input(file + ": /" + key, "missing", allowed);
  try {
    return doc.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw bad_input(file + ": /" + key, "has the wrong type: " + doc.at(key).dump().substr(0, 60), allowed);
  }
}

// The shipped tables are 0.4 to 1.5 MB.
constexpr std::uint64_t kMaxSpectralTableBytes = 64ull << 20;

}  // namespace

GasData load_gas_data(const std::string& path) {
  const std::string text = read_input_file(path, "spectral table", kMaxSpectralTableBytes);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw bad_input(path, std::string("is not valid JSON: ") + e.what());
  }
  const auto format = field<std::string>(doc, "format", path, "\"ks-nbck-1\"");
  if (format != "ks-nbck-1") throw bad_input(path + ": /format", "is '" + format + "'", "\"ks-nbck-1\"");
  GasData g;
  g.gas = field<std::string>(doc, "gas", path, "a gas name");
  g.source = field<std::string>(doc, "source", path, "a line naming the data source");
  g.T = field<std::vector<double>>(doc, "temperatures_K", path, "ascending temperatures in K");
  g.weights = field<std::vector<double>>(doc, "gauss_weights", path, "quadrature weights summing to 1");
  const auto bands = field<nlohmann::json>(doc, "bands", path, "[{center_cm, width_cm}, ...]");
  const auto k = field<std::vector<std::vector<std::vector<double>>>>(doc, "k_per_m", path, "k_per_m[band][g][t] >= 0");
  if (g.T.size() < 2) throw bad_input(path + ": /temperatures_K", "needs at least 2 temperatures");
  for (std::size_t t = 1; t < g.T.size(); ++t)
    if (!(g.T[t] > g.T[t - 1])) throw bad_input(path + ": /temperatures_K/" + std::to_string(t), "is not ascending");
  const double wsum = std::accumulate(g.weights.begin(), g.weights.end(), 0.0);
  if (g.weights.empty() || std::fabs(wsum - 1.0) > 1e-6)
    throw bad_input(path + ": /gauss_weights", "sum to " + std::to_string(wsum), "weights summing to 1");
  if (!bands.is_array() || bands.size() != k.size() || bands.empty())
    throw bad_input(path + ": /bands", std::to_string(bands.size()) + " bands but k_per_m has " + std::to_string(k.size()),
                    "one k_per_m entry per band");
  const std::size_t nt = g.T.size(), ng = g.weights.size();
  g.k.reserve(k.size() * ng * nt);
  for (std::size_t b = 0; b < k.size(); ++b) {
    const std::string where = path + ": /bands/" + std::to_string(b);
    const double c = field<double>(bands[b], "center_cm", where, "a wavenumber in 1/cm");
    const double w = field<double>(bands[b], "width_cm", where, "a band width in 1/cm");
    if (!(w > 0.0) || !(c - 0.5 * w >= 0.0))
      throw bad_input(where, "has centre " + std::to_string(c) + " and width " + std::to_string(w), "width > 0, centre >= width / 2");
    g.nu_lo.push_back(c - 0.5 * w);
    g.nu_hi.push_back(c + 0.5 * w);
    if (k[b].size() != ng)
      throw bad_input(path + ": /k_per_m/" + std::to_string(b), "has " + std::to_string(k[b].size()) + " Gauss points", std::to_string(ng));
    for (std::size_t q = 0; q < ng; ++q) {
      if (k[b][q].size() != nt)
        throw bad_input(path + ": /k_per_m/" + std::to_string(b) + "/" + std::to_string(q),
                        "has " + std::to_string(k[b][q].size()) + " temperatures", std::to_string(nt));
      for (double v : k[b][q]) {
        if (!(v >= 0.0) || !std::isfinite(v))
          throw bad_input(path + ": /k_per_m/" + std::to_string(b) + "/" + std::to_string(q), "holds " + std::to_string(v),
                          "finite k >= 0");
        g.k.push_back(v);
      }
    }
  }
  return g;
}

std::string gas_data_file(Gas g) {
  const std::string name = lower(gas_name(g));
  return (resource_dir() / "radiation" / ("nbck_" + name + ".json")).string();
}

namespace {

// k of `gas` at band b, point q and temperature T: linear in T, constant beyond the file's range.
double gas_k(const GasData& gas, int b, int q, double T) {
  const std::size_t nt = gas.T.size();
  const double* row = &gas.k[(std::size_t(b) * gas.per_band() + q) * nt];
  if (T <= gas.T.front()) return row[0];
  if (T >= gas.T.back()) return row[nt - 1];
  const std::size_t i = std::upper_bound(gas.T.begin(), gas.T.end(), T) - gas.T.begin() - 1;
  const double f = (T - gas.T[i]) / (gas.T[i + 1] - gas.T[i]);
  return row[i] + f * (row[i + 1] - row[i]);
}

// Inclusive cumulative sums normalised to end at exactly 1 (an all-zero row stays zero).
void normalise_cumulative(double* c, int n) {
  for (int i = 1; i < n; ++i) c[i] += c[i - 1];
  const double total = c[n - 1];
  if (total <= 0.0) return;
  for (int i = 0; i < n; ++i) c[i] /= total;
  c[n - 1] = 1.0;
}

}  // namespace

SpectralTables build_tables(const GasData& gas, double T_lo, double T_hi, double T_max, int nt) {
  SpectralTables s;
  s.bands = gas.bands();
  s.per_band = gas.per_band();
  s.nt = nt;
  s.T0 = T_lo;
  s.dT = (T_hi - T_lo) / (nt - 1);
  s.weights = gas.weights;
  s.emission.resize(std::size_t(s.bands) * nt);
  s.absorption.resize(std::size_t(s.points()) * nt);
  for (int b = 0; b < s.bands; ++b) {
    s.band_center.push_back(0.5 * (gas.nu_lo[b] + gas.nu_hi[b]));
    for (int t = 0; t < nt; ++t) {
      const double T = T_lo + t * s.dT;
      s.emission[std::size_t(b) * nt + t] =
          gas.grey ? kStefanBoltzmann * T * T * T * T : band_emissive_power(gas.nu_lo[b], gas.nu_hi[b], T);
      for (int q = 0; q < s.per_band; ++q) s.absorption[(std::size_t(b) * s.per_band + q) * nt + t] = gas_k(gas, b, q, T);
    }
  }
  // Sampling at T_max (eq. 15-17), from the same interpolated tables the marcher reads.
  s.T_max = T_max;
  const double tm = s.coordinate(T_max);
  const int P = s.points();
  std::vector<double> source(P);  // w_g k_{n,g} E_n at T_max
  s.cdf_band.assign(s.bands, 0.0);
  s.cdf_point.assign(P, 0.0);
  s.inv_source.assign(P, 0.0);
  for (int b = 0; b < s.bands; ++b) {
    const double E = s.emission_at(b, tm);
    for (int q = 0; q < s.per_band; ++q) {
      const int p = b * s.per_band + q;
      const double k = s.absorption_at(p, tm);
      source[p] = s.weights[q] * k * E;
      s.cdf_point[p] = source[p];
      s.cdf_band[b] += source[p];
      if (k * E > 0.0) s.inv_source[p] = 1.0 / (k * E);
    }
    normalise_cumulative(&s.cdf_point[std::size_t(b) * s.per_band], s.per_band);
  }
  const double total = std::accumulate(source.begin(), source.end(), 0.0);
  if (!(total > 0.0))
    throw bad_input(param_key(&RmcParams::temperature), "the gas emits nothing at T_max = " + std::to_string(T_max) + " K",
                    "a medium with T_max > 0 and k > 0 somewhere");
  s.emission_max = 4.0 * total;
  normalise_cumulative(s.cdf_band.data(), s.bands);
  // One cumulative table over all points in ascending k(T_max): a cell's rays walk it down with
  // descending order statistics of the uniforms (rmc_model.hpp), so they come in descending k (the
  // narrow-band sorting of section 4.2) with the same distribution as eq. (17).
  s.sorted_point.resize(P);
  std::iota(s.sorted_point.begin(), s.sorted_point.end(), 0);
  std::vector<double> k_max(P);
  for (int p = 0; p < P; ++p) k_max[p] = s.absorption_at(p, tm);
  std::stable_sort(s.sorted_point.begin(), s.sorted_point.end(), [&](int a, int b) { return k_max[a] < k_max[b]; });
  s.cdf_sorted.resize(P);
  for (int r = 0; r < P; ++r) s.cdf_sorted[r] = source[s.sorted_point[r]];
  normalise_cumulative(s.cdf_sorted.data(), P);
  return s;
}

double SpectralTables::kappa_planck(double T) const {
  if (T <= 0.0) return 0.0;
  const double t = coordinate(T);
  double sum = 0.0;
  for (int b = 0; b < bands; ++b) {
    const double E = emission_at(b, t);
    for (int q = 0; q < per_band; ++q) sum += weights[q] * absorption_at(b * per_band + q, t) * E;
  }
  return sum / (kStefanBoltzmann * T * T * T * T);
}

double SpectralTables::kappa_ref(KappaRef r) const {
  const double tm = coordinate(T_max);
  auto band_mean = [&](int b) {  // sum_g w_g k_{n,g} (eq. 26)
    double m = 0.0;
    for (int q = 0; q < per_band; ++q) m += weights[q] * absorption_at(b * per_band + q, tm);
    return m;
  };
  if (r == KappaRef::Planck) return kappa_planck(T_max);
  if (r == KappaRef::BandMax) {
    double m = 0.0;
    for (int b = 0; b < bands; ++b) m = std::max(m, band_mean(b));
    return m;
  }
  // eq. (26): the band holding the emission-weighted mean wavenumber at T_max.
  double nu_bar = 0.0;
  for (int b = 0; b < bands; ++b) nu_bar += band_center[b] * (cdf_band[b] - (b ? cdf_band[b - 1] : 0.0));
  int best = 0;
  for (int b = 1; b < bands; ++b)
    if (std::fabs(band_center[b] - nu_bar) < std::fabs(band_center[best] - nu_bar)) best = b;
  return band_mean(best);
}

}  // namespace ks::rmc
