// ElaborationArena: one memory block for the state a network builds once
// and keeps for the whole run (a router's object and its arrays).
//
// Why: a router built from a dozen small heap arrays spreads one busy cycle
// over a dozen places, each with a heap header and most of a cache line to
// itself; in a network larger than the caches every one of them is a miss.
// Allocated one after another from one block, a router's object and arrays
// sit together, in the order the network builds them, and nothing is spent
// on headers.
//
// It is a std::pmr::memory_resource: blocks keep FixedArray arrays (below),
// which use the ordinary heap unless given an arena; a std::pmr::vector may
// use it too. Nothing is freed before the arena goes (deallocation is a
// no-op), so arrays must not grow once built: after seal() (the network's elaboration is over) an allocation is
// a model error, caught in tests, instead of a silent race between the
// engine's worker threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace icn {

class ElaborationArena : public std::pmr::memory_resource {
 public:
  // Memory is taken from the heap in chunks of at least `chunk` bytes.
  explicit ElaborationArena(std::size_t chunk = std::size_t{1} << 20) : chunks_(chunk) {}
  ElaborationArena(const ElaborationArena&) = delete;
  ElaborationArena& operator=(const ElaborationArena&) = delete;

  // Elaboration is over: any later allocation throws.
  void seal() { sealed_ = true; }
  bool sealed() const { return sealed_; }
  // Bytes handed out (without alignment padding).
  std::size_t bytes() const { return bytes_; }

  // Builds a T in the arena; ArenaPtr<T> destroys it without freeing memory.
  template <class T, class... Args>
  T* make(Args&&... args) {
    void* at = allocate(sizeof(T), alignof(T));
    return new (at) T(std::forward<Args>(args)...);
  }

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (sealed_) throw std::logic_error("elaboration arena: an allocation after elaboration (an array grew during the run)");
    bytes_ += bytes;
    return chunks_.allocate(bytes, align);
  }
  void do_deallocate(void*, std::size_t, std::size_t) override {}
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  std::pmr::monotonic_buffer_resource chunks_;
  std::size_t bytes_ = 0;
  bool sealed_ = false;
};

// An array whose length is set once, before the run, with its elements in an
// arena (nothing to free) or, given none, on the heap (freed with it): a
// pointer and a length, 16 bytes where a vector takes 24 and a pmr vector
// 32. A router keeps a dozen. Elements must be trivially destructible.
template <class T>
class FixedArray {
  static_assert(std::is_trivially_destructible_v<T>, "FixedArray: elements are never destroyed one by one");

 public:
  FixedArray() = default;
  FixedArray(const FixedArray&) = delete;
  FixedArray& operator=(const FixedArray&) = delete;
  ~FixedArray() { release(); }

  // n copies of `fill`, from `arena` (null: the heap).
  void assign(std::pmr::memory_resource* arena, std::size_t n, const T& fill) {
    if (n > UINT32_MAX) throw std::length_error("fixed array: more than 2^32 - 1 elements");
    release();
    owned_ = arena == nullptr;
    data_ = n == 0 ? nullptr
                   : static_cast<T*>(owned_ ? ::operator new(n * sizeof(T), std::align_val_t{alignof(T)})
                                            : arena->allocate(n * sizeof(T), alignof(T)));
    size_ = static_cast<std::uint32_t>(n);
    for (std::size_t i = 0; i < n; ++i) new (data_ + i) T(fill);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  void release() {
    if (owned_ && data_ != nullptr) ::operator delete(data_, std::align_val_t{alignof(T)});
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::uint32_t size_ = 0;
  bool owned_ = false;
};

// Owns an object built by ElaborationArena::make: destroys it, leaves the
// memory to the arena (which must outlive it).
struct ArenaDestroy {
  template <class T>
  void operator()(T* p) const noexcept { p->~T(); }
};
template <class T>
using ArenaPtr = std::unique_ptr<T, ArenaDestroy>;

}  // namespace icn
