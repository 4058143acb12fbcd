// A new thread starts with its creator's vector registers: Linux copies them at clone. Where the
// creator ran 256-bit AVX code and left without `vzeroupper` (the app's GUI thread, after its GL
// driver, Qt or VTK), the new thread carries that "dirty upper state", and on Intel cores every
// legacy-SSE instruction it runs (glibc's log and exp, the engine's statistics) waits on the upper
// halves. On the H200 machine's Xeon, 2^20 calls of log took 160-200 ms on the app's GUI thread
// against 5-8 ms in kinetic-run, and the solver thread inherited it: the coagulation run's
// iterations took twice kinetic-run's time with one OpenMP thread (issue 49).
#pragma once

namespace ks {

// Clears this thread's upper vector state (`vzeroupper`) where the CPU has AVX; nothing elsewhere.
// Call first in a thread that computes, before it creates others (an OpenMP team inherits it).
void clear_inherited_vector_state();

// Whether this thread's upper AVX state is in use (XINUSE bit 2), where the CPU reports it (XGETBV
// with ECX = 1); false where it does not. For tests and diagnostics.
bool upper_vector_state_in_use();
// Whether upper_vector_state_in_use() can be true on this CPU.
bool upper_vector_state_observable();

}  // namespace ks
