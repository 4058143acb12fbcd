// The device's achievable memory bandwidth, measured rather than taken from a data sheet:
// the roofline that memory-bound kernels are compared with.
#pragma once

namespace ks::bench {

// Bytes per second of a large device-to-device copy (read + write counted), best of a few repeats.
double measured_device_bandwidth(int device);

}  // namespace ks::bench
