#include "bgk_params.hpp"

namespace ks::bgk {

const ParamTable<BgkParams>& bgk_param_table() {
  using P = BgkParams;
  static const ParamTable<P> table =
      ParamTable<P>()
          .bind_choice(&P::problem,
                       choice_param("case", "Problem", "shock", {"shock", "cavity"},
                                    "shock: 1D3V normal shock in [-L/2, L/2] (section 4); cavity: 2D3V square cavity [0, delta]^2 "
                                    "with a moving lid (section 5)"),
                       {Case::Shock, Case::Cavity})
          .bind(&P::mach,
                quick(only_when("case", {"shock"},
                                real_param("mach", "Upstream Mach number", "", 1.5, 1.01, 10.0,
                                           "Shock: M^- of eq. (19); the boundary Maxwellians follow Rankine-Hugoniot (eq. 18)", false))),
                Change::NextIteration)
          .bind(&P::length,
                only_when("case", {"shock"},
                          real_param("length", "Domain length", "lambda", 70.0, 5.0, 10000.0, "Shock: L in upstream mean free paths")))
          .bind(&P::delta,
                quick(only_when("case", {"cavity"},
                                real_param("delta", "Rarefaction parameter", "", 1.0, 0.01, 100.0,
                                           "Cavity: side in mean free paths, delta = p0 L / (mu0 sqrt(2 R T0)) (about 1 / Kn)"))),
                Change::NextIteration)
          .bind(&P::lid_speed,
                only_when("case", {"cavity"},
                          real_param("lid_speed", "Lid speed", "v_ref", 0.01, 1e-4, 0.5, "Cavity: lid velocity along +x in sqrt(2 R T0)")),
                Change::NextIteration)
          .bind(&P::nx, int_param("nx", "Cells along x", 256, 4, 1 << 20, "Physical cells along x"))
          .bind(&P::ny, only_when("case", {"cavity"},
                                  int_param("ny", "Cells along y", 160, 4, 1 << 14, "Cavity: physical cells along y (the shock has one)")))
          .bind(&P::nv, int_param("nv", "Velocity cells per axis", 16, 4, kMaxAxisVelocities,
                                  "N_v per velocity component (16^3 and 30^3 for the shocks, 20^3 for the cavity)"))
          .bind(&P::vx_min,
                real_param("vx_min", "v_x box, lower end", "v_ref", -5.0, -100.0, 100.0, "Lower end of the v_x interval", false))
          .bind(&P::vx_max, real_param("vx_max", "v_x box, upper end", "v_ref", 7.0, -100.0, 100.0, "Upper end of the v_x interval", false))
          .bind(&P::vt_max,
                real_param("vt_max", "v_y, v_z box half-width", "v_ref", 6.0, 0.5, 100.0, "v_y and v_z span [-vt_max, vt_max]", false))
          .bind(&P::dt,
                overridden_by("courant",
                              real_param("dt", "Time step", "1/nu_ref", 0.05, 1e-6, 1.0,
                                         "Time step; the shock streams with exact shifts at any Courant number, the cavity's limit "
                                         "depends on the 2D streaming (split: max|v| dt/dx <= 1 per axis; unsplit: the sum over both "
                                         "axes <= 1)")),
                Change::NextIteration)
          .bind(&P::courant,
                real_param("courant", "Courant number", "", 0.0, 0.0, 1.0,
                           "0: dt as given. Above 0: dt is set for this Courant number on the grid and streaming in use (shock: "
                           "max|v_x| dt/dx; cavity: as the dt limit above), so a new grid keeps a stable dt"),
                Change::NextIteration)
          .bind_choice(
              &P::streaming,
              only_when("case", {"cavity"},
                        choice_param("streaming", "2D streaming", "unsplit", {"split", "unsplit"},
                                     "Cavity: split sweeps x then y (max |v| dt/dx <= 1 per axis); unsplit takes both upwind "
                                     "differences from f^n, the donor-cell extension of eq. (12) (|v_x| dt/dx + |v_y| dt/dy <= 1)")),
              {Streaming::Split, Streaming::Unsplit}, Change::NextIteration)
          .bind(&P::omega, real_param("omega", "Viscosity exponent", "", 0.74, 0.5, 1.0, "mu ~ T^omega (eq. 21)", false))
          .bind(&P::conservative,
                bool_param("conservative", "Conservative Maxwellian", false,
                           "Relax towards a discrete Maxwellian with effective n, V, T that keep the moments of f exactly"),
                Change::NextIteration)
          .bind(&P::t_end, real_param("t_end", "End time", "1/nu_ref", 400.0, 1e-3, 1e7, "Stop at this time if not steady before"),
                Change::Nothing)
          .bind(&P::tolerance,
                real_param("tolerance", "Steady-state tolerance", "", 1e-7, 0.0, 1.0,
                           "Stop when the relative change of n, V, T per unit time (L2 over cells) falls below this; 0: run to t_end"),
                Change::Nothing)
          .bind(&P::steps_per_iteration,
                int_param("steps_per_iteration", "Steps per update", 20, 1, 100000, "Time steps between snapshots"), Change::Nothing)
          .bind_choice(&P::variant,
                       choice_param("variant", "GPU step", "fused", {"fused", "paper"},
                                    "CUDA only. fused: streaming folded into the moment and relaxation kernels; paper: Algorithm 1 "
                                    "(shared-memory streaming) then Algorithm 2 (collision)"),
                       {StepVariant::Fused, StepVariant::Paper}, Change::NextIteration);
  return table;
}

}  // namespace ks::bgk
