// aerosol.coagulation's keys become the ensemble's configuration here, and only here.
#include "coag_config.hpp"

#include <cstdint>
#include <string>

#include "coag_params.hpp"
#include "coag_stepped.hpp"
#include "coag_units.hpp"
#include "core/constants.hpp"
#include "core/errors.hpp"

namespace ks::coag {
namespace {

constexpr std::int64_t kRefreshEveryParticles = 4;  // full recompute of C' every 4 n_s events

}  // namespace

EnsembleConfig make_config(const CoagParams& p) {
  EnsembleConfig cfg;
  cfg.n_s = p.n_s;
  cfg.box_volume = cfg.n_s / p.N0;  // every simulation particle starts with weight 1
  cfg.seed = static_cast<std::uint64_t>(p.seed);
  cfg.refresh_every = kRefreshEveryParticles * cfg.n_s;
  KernelParams& k = cfg.kernel;
  k.kind = p.kernel;
  k.KF = free_molecular_KF(p.T, p.rho_p);
  k.K = p.K;
  k.B = p.B;
  k.kT = kBoltzmann * p.T;
  k.mu = p.gas_viscosity;
  k.mfp = p.mean_free_path * 1e-9;
  k.rho_p = p.rho_p;
  cfg.selection = p.selection;
  cfg.step_trials = step_trials(p.step_fraction, cfg.n_s);
  if (!strategy(cfg.selection).supports(k.kind))
    throw bad_input(param_key(&CoagParams::selection),
                    "'" + std::string(selection_name(cfg.selection)) + "' has no bound for the kernel 'fuchs'",
                    "selection 'prefix' with kernel 'fuchs'; 'rejection', 'majorant' and 'stepped' with free_molecular, constant, "
                    "additive or continuum");
  return cfg;
}

}  // namespace ks::coag
