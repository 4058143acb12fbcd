// Mathematical and physical constants, each once (SI; the SI-defining values are exact). Plain
// constexpr scalars: CUDA device code may use them as they are.
#pragma once

namespace ks::constants {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kBoltzmann = 1.380649e-23;          // J/K
inline constexpr double kStefanBoltzmann = 5.670374419e-8;  // W/(m^2 K^4)
inline constexpr double kPlanck = 6.62607015e-34;           // J s
inline constexpr double kLightSpeed = 299792458.0;          // m/s

}  // namespace ks::constants
