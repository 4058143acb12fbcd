// A std::vector whose elements start uninitialised: a set-up array of gigabytes is then touched
// first by the threads that fill it (core/interruptible_fill.hpp) instead of being zeroed by one
// thread before it is filled. Otherwise a std::vector.
#pragma once

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ks {

template <class T>
struct UninitialisedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  // No arguments: default-initialised (for a number, left as it is).
  template <class U>
  void construct(U* p) noexcept(noexcept(::new (static_cast<void*>(p)) U)) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using HostArray = std::vector<T, UninitialisedAllocator<T>>;

}  // namespace ks
