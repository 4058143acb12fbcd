#include "coag_params.hpp"

namespace ks::coag {

const ParamTable<CoagParams>& coag_param_table() {
  using P = CoagParams;
  static const ParamTable<P> table =
      ParamTable<P>()
          .bind_choice(&P::kernel,
                       choice_param("kernel", "Coagulation kernel", "free_molecular",
                                    {"free_molecular", "constant", "additive", "continuum", "fuchs"},
                                    "free_molecular: Brownian, free-molecule regime (eq. 11); constant: beta = K; additive: beta = B "
                                    "(v_i + v_j); continuum: Stokes-Einstein Brownian; fuchs: Fuchs transition-regime interpolation"),
                       {KernelKind::FreeMolecular, KernelKind::Constant, KernelKind::Additive, KernelKind::Continuum, KernelKind::Fuchs})
          .bind(&P::n_s, int_param("n_s", "Simulation particles per run", 2000, 16, 100000000,
                                   "Number of weighted simulation particles in each run; constant during the run"))
          .bind(&P::n_runs,
                quick(int_param("n_runs", "Runs in the ensemble", 10, 1, 10000,
                                "Independent runs with different random streams; statistics are over runs")),
                Change::NextIteration)
          .bind(&P::t_end,
                quick(real_param("t_end", "End time", "tau_char", 1000.0, 1e-3, 1e6,
                                 "Simulated time in units of tau_char (eq. 12 for free_molecular; 2/(beta(d0,d0) N0) otherwise)")),
                Change::NextIteration)
          .bind(&P::outputs_per_decade,
                int_param("outputs_per_decade", "Outputs per decade", 5, 1, 50,
                          "Output times are log-spaced from 0.01 tau_char; 5 per decade gives the paper's 16 times in [1, 1000] tau_char"))
          .bind(&P::d0, real_param("d0", "Initial diameter", "nm", 3.0, 0.1, 1e5, "Geometric mean diameter of the initial population"))
          .bind(&P::sigma_g0, real_param("sigma_g0", "Initial geometric std", "", 1.0, 1.0, 3.0,
                                         "1 is monodisperse; above 1 the initial sizes are sampled from a lognormal", false))
          .bind(&P::N0,
                real_param("N0", "Initial number concentration", "1/m^3", 1e17, 1e6, 1e26, "Real particles per cubic metre at t = 0"))
          .bind(&P::T, real_param("T", "Temperature", "K", 300.0, 1.0, 5000.0, "Gas temperature", false))
          .bind(&P::rho_p,
                real_param("rho_p", "Particle density", "kg/m^3", 1000.0, 1.0, 25000.0, "Material density of the particles", false))
          .bind(&P::K, only_when("kernel", {"constant"},
                                 real_param("K", "Constant kernel", "m^3/s", 1e-15, 1e-30, 1e-3, "beta = K for kernel = constant")))
          .bind(&P::B,
                only_when("kernel", {"additive"},
                          real_param("B", "Additive kernel", "1/s", 1e10, 1e-10, 1e30, "beta = B (v_i + v_j) for kernel = additive")))
          .bind(&P::gas_viscosity,
                only_when("kernel", {"continuum", "fuchs"},
                          real_param("gas_viscosity", "Gas viscosity", "Pa s", 1.81e-5, 1e-7, 1e-2, "For the continuum and Fuchs kernels")))
          .bind(&P::mean_free_path, only_when("kernel", {"fuchs"},
                                              real_param("mean_free_path", "Gas mean free path", "nm", 68.0, 0.1, 1e6,
                                                         "For the Fuchs kernel (slip correction)")))
          .bind(&P::seed,
                int_param("seed", "Random seed", 1, 0, 2147483647, "Seed of the Philox streams; the same seed repeats a run exactly"))
          .bind_choice(&P::selection,
                       choice_param("selection", "Pair selection", "prefix", selection_names(),
                                    "prefix: inverse transform on cumulative sums (eq. 5a, 5b, the paper); rejection: acceptance-rejection "
                                    "against a bound, the same pair distribution without sums (faster on the GPU); majorant: trials "
                                    "against a majorant kernel, no C' and O(1) work an event (large n_s); stepped: the majorant's "
                                    "trials made step_fraction n_s at a time in parallel (one large run on the GPU); rejection, "
                                    "majorant and stepped not for the fuchs kernel"),
                       all_selections())
          .bind(&P::step_fraction, only_when("selection", {"stepped"},
                                             real_param("step_fraction", "Trials a step", "n_s", 1e-3, 1e-7, 1e-2,
                                                        "Trials made at once as a fraction of n_s (1 to 16384 a step; above 1024 a run "
                                                        "spans several GPU blocks). A particle that coagulates rests "
                                                        "until its step ends, missing about step_fraction trials: smaller is closer to the "
                                                        "event-by-event majorant, larger gives the GPU more to do at once")));
  return table;
}

}  // namespace ks::coag
