// The one place that lists the built-in methods.
#include "core/registry.hpp"
#include "methods/bgk/bgk_method.hpp"
#include "methods/coagulation/coag_method.hpp"
#include "methods/dvm/dvm_method.hpp"
#include "methods/lbm/lbm_method.hpp"
#include "methods/radiation/rmc_method.hpp"

namespace ks {

const Registry& builtin_registry() {
  static const Registry registry = [] {
    Registry r;
    r.add<coag::CoagulationMethod>();
    r.add<bgk::BgkMethod>();
    r.add<dvm::DvmMethod>();
    r.add<lbm::LbmMethod>();
    r.add<rmc::RmcMethod>();
    return r;
  }();
  return registry;
}

}  // namespace ks
